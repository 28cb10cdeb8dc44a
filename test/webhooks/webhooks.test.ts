import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { eventually } from '../helpers/patience.js';
import { answerHandshake, startReceiver, VERIFY_TOKEN, type Receiver, type Received } from '../helpers/receiver.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

const SUCCESS = { success: true };

/** The entries of every notification so far, each with the raw body it came in. */
function entries(receiver: Receiver): Array<{ uid: string; id: string; time: number; changed_fields: string[] }> {
  return receiver.notifications().flatMap((request) => JSON.parse(request.body).entry);
}

function assertSigned(request: Received, secret: string): void {
  const sha1 = createHmac('sha1', secret).update(request.body).digest('hex');
  const sha256 = createHmac('sha256', secret).update(request.body).digest('hex');
  assert.equal(request.headers['x-hub-signature'], `sha1=${sha1}`);
  assert.equal(request.headers['x-hub-signature-256'], `sha256=${sha256}`);
  assert.equal(request.headers['content-type'], 'application/json');
  assert.match(String(request.headers['x-loom-delivery']), /^\d+$/);
}

describe('webhooks over HTTP with a real receiver', () => {
  let fixture: Fixture;
  let server: TestServer;
  let receiver: Receiver;
  let appToken: string;
  const served = useFixtureServer({ webhooks: { deliver: true, allowPrivate: true, windowMs: 50 } });
  before(async () => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  const subscribe = (fields: Record<string, string>) =>
    server.form(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken, object: 'user', callback_url: receiver.url, fields: 'feed', verify_token: VERIFY_TOKEN, ...fields });
  const control = (path: string, body?: unknown) =>
    server.fetch(`${server.url}/_loom${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('verifies the callback with the hub.challenge handshake before saving the subscription', async () => {
    const reply = await subscribe({ fields: 'feed,friends,likes,name' });
    assert.deepEqual(reply.body, SUCCESS, reply.text);
    const [handshake] = receiver.requests;
    assert.equal(handshake!.method, 'GET');
    assert.equal(handshake!.url.searchParams.get('hub.mode'), 'subscribe');
    assert.equal(handshake!.url.searchParams.get('hub.verify_token'), VERIFY_TOKEN);
    assert.match(handshake!.url.searchParams.get('hub.challenge')!, /^\d+$/);

    const listed = await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken });
    assert.deepEqual(listed.body, { data: [{ object: 'user', callback_url: receiver.url, fields: ['feed', 'friends', 'likes', 'name'], active: true }] });
  });

  it('refuses a subscription whose handshake fails, and malformed ones, with the real errors', async () => {
    const before = (await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken })).body;
    const wrongToken = await subscribe({ object: 'page', verify_token: 'not-the-word' });
    assert.equal(wrongToken.status, 400);
    assert.equal(wrongToken.body.error.code, 2200, wrongToken.text);
    assert.match(wrongToken.body.error.message, /^\(#2200\) subscription validation failed/);

    receiver.respond = (request) => ({ status: 200, body: request.method === 'GET' ? 'something else' : 'ok' });
    try {
      const wrongAnswer = await subscribe({ object: 'page' });
      assert.equal(wrongAnswer.body.error.code, 2200, wrongAnswer.text);
    } finally {
      receiver.respond = answerHandshake;
    }
    const unreachable = await subscribe({ object: 'page', callback_url: 'http://127.0.0.1:1/hook' });
    assert.equal(unreachable.body.error.code, 2200, unreachable.text);
    assert.match(unreachable.body.error.message, /the callback http:\/\/127\.0\.0\.1:1\/hook could not be reached: bad port$/);

    for (const callback_url of ['not a url', 'ftp://example.com/hook', 'http://user:pw@example.com/hook']) {
      const reply = await subscribe({ callback_url });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.message, '(#100) callback_url URL is not properly formatted', callback_url);
    }
    const ownPort = await subscribe({ callback_url: `${server.url}/hook` });
    assert.equal(ownPort.body.error.code, 100, ownPort.text);
    const unknownObject = await subscribe({ object: 'planet' });
    assert.equal(unknownObject.body.error.message, '(#100) Invalid parameter');
    const unknownField = await subscribe({ fields: 'feed,shoe_size' });
    assert.equal(unknownField.body.error.code, 100);
    assert.match(unknownField.body.error.message, /shoe_size/);
    const userToken = await server.form(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: fixture.aliceToken, object: 'user', callback_url: receiver.url, fields: 'feed' });
    assert.equal(userToken.status, 400);
    assert.equal(userToken.body.error.code, 15, userToken.text);

    assert.deepEqual((await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken })).body, before, 'nothing was saved');
  });

  it('notifies a post, a like, a new friend and a name change, each signed with the app secret', async () => {
    const alice = fixture.scoped(fixture.users.alice);
    const token = await fixture.tokenFor(fixture.users.alice, ['publish_actions', 'user_posts']);
    const posted = await server.form('/v2.4/me/feed', { access_token: token, message: 'Für alle — 你好' });
    assert.equal(posted.status, 200, posted.text);
    await eventually(() => entries(receiver).some((entry) => entry.uid === alice && entry.changed_fields[0] === 'feed'), 'the feed notification');

    const liked = await server.form(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.bob)}/likes`, { access_token: token });
    assert.deepEqual(liked.body, SUCCESS, liked.text);
    await eventually(() => entries(receiver).some((entry) => entry.uid === alice && entry.changed_fields[0] === 'likes'), 'the like notification');

    const testUser = async (name: string) =>
      (await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, name, permissions: 'public_profile,user_friends' })).body as { id: string; access_token: string };
    const ann = await testUser('Ann Asker');
    const ben = await testUser('Ben Bidden');
    await server.form(`/v2.4/${ann.id}/friends/${ben.id}`, { access_token: ann.access_token });
    await server.form(`/v2.4/${ben.id}/friends/${ann.id}`, { access_token: ben.access_token });
    await eventually(
      () => [ann.id, ben.id].every((id) => entries(receiver).some((entry) => entry.uid === id && entry.changed_fields[0] === 'friends')),
      'the friends notifications of both',
    );

    const renamed = await server.form(`/v2.4/${ann.id}`, { access_token: appToken, name: 'Ann Renamed' });
    assert.deepEqual(renamed.body, SUCCESS, renamed.text);
    await eventually(() => entries(receiver).some((entry) => entry.uid === ann.id && entry.changed_fields[0] === 'name'), 'the name notification');

    for (const request of receiver.notifications()) {
      assertSigned(request, fixture.app.secret);
      const body = JSON.parse(request.body);
      assert.equal(body.object, 'user');
      assert.ok(/^[\x00-\x7f]*$/.test(request.body), 'non-ASCII characters travel escaped');
      for (const entry of body.entry) {
        assert.deepEqual(Object.keys(entry), ['uid', 'id', 'time', 'changed_fields']);
        assert.equal(entry.uid, entry.id);
        assert.equal(entry.time, fixture.now);
      }
    }
    // The fields subscribed to only: no entry for first_name, which the rename changed too.
    assert.ok(entries(receiver).every((entry) => ['feed', 'likes', 'friends', 'name'].includes(entry.changed_fields[0]!)));
    // The answer is recorded just after the receiver has it.
    const delivered = async () => (await control('/webhooks/deliveries')).body.data.every((delivery: { status: string }) => delivery.status === 'delivered');
    await eventually(delivered, 'every delivery recorded as delivered');
    const deliveries = await control('/webhooks/deliveries');
    assert.ok(deliveries.body.data.length >= 4);
    assert.ok(deliveries.body.data.every((delivery: { attempt_count: number }) => delivery.attempt_count === 1), deliveries.text);
    // None reused a connection, which the receiver may drop when it likes while it stands idle.
    const connections = receiver.requests.map((request) => request.connection);
    assert.equal(new Set(connections).size, connections.length, `connections ${connections.join(',')}`);
  });

  it('retries a failing callback by the clock and delivers exactly once after it recovers', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['publish_actions', 'user_posts']);
    let failures = 0;
    receiver.respond = (request) => {
      if (request.method === 'POST' && failures < 3) {
        failures += 1;
        return { status: 500, body: 'down for maintenance' };
      }
      return { status: 200, body: 'ok' };
    };
    const seen = receiver.notifications().length;
    await server.form('/v2.4/me/feed', { access_token: token, message: 'Will it arrive?' });
    await eventually(() => receiver.notifications().length > seen, 'the first attempt');
    const id = String(receiver.notifications()[seen]!.headers['x-loom-delivery']);
    const delivery = async () => (await control(`/webhooks/deliveries/${id}`)).body;
    for (let attempts = 1; attempts <= 3; attempts += 1) {
      await eventually(async () => (await delivery()).attempt_count === attempts, `attempt ${attempts} recorded`);
      const state = await delivery();
      assert.equal(state.status, 'pending');
      assert.equal(state.attempts.at(-1).status, 500);
      assert.equal(state.attempts.at(-1).answer, 'down for maintenance');
      assert.equal((await control('/clock', { advance: '2h' })).status, 200);
    }
    await eventually(async () => (await delivery()).status === 'delivered', 'the delivery after recovery');
    assert.equal((await delivery()).attempt_count, 4);

    // A day later, and after another change has gone out, it has still come exactly once more.
    await control('/clock', { advance: '1d' });
    await control('/clock', { now: fixture.now });
    const before = receiver.notifications().length;
    await server.form('/v2.4/me/feed', { access_token: token, message: 'A later one' });
    await eventually(() => receiver.notifications().length > before, 'the later notification');
    const sent = receiver.notifications().filter((request) => request.headers['x-loom-delivery'] === id);
    assert.equal(sent.length, 4);
    assert.equal(new Set(sent.map((request) => request.body)).size, 1, 'every attempt sends the same body');
  });

  it('marks the subscription inactive once its callback has failed for the whole retry span', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['publish_actions', 'user_posts']);
    receiver.respond = (request) => (request.method === 'POST' ? { status: 503, body: 'gone' } : { status: 200, body: '' });
    const seen = receiver.notifications().length;
    await server.form('/v2.4/me/feed', { access_token: token, message: 'Nobody listens' });
    await eventually(() => receiver.notifications().length > seen, 'the first attempt');
    const id = String(receiver.notifications()[seen]!.headers['x-loom-delivery']);
    for (let round = 0; round < 40; round += 1) {
      const state = (await control(`/webhooks/deliveries/${id}`)).body;
      if (state.status === 'failed') break;
      const attempts = state.attempt_count;
      await control('/clock', { advance: '2h' });
      await eventually(async () => (await control(`/webhooks/deliveries/${id}`)).body.attempt_count > attempts, 'another attempt');
    }
    await control('/clock', { now: fixture.now });
    assert.equal((await control(`/webhooks/deliveries/${id}`)).body.status, 'failed');
    const listed = await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken });
    assert.equal(listed.body.data[0].active, false);

    // Subscribing again (the handshake passes) makes it active.
    receiver.respond = answerHandshake;
    assert.deepEqual((await subscribe({ fields: 'feed' })).body, SUCCESS);
    assert.equal((await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken })).body.data[0].active, true);
  });

  it('notifies the app of a permission its user revokes, under the permissions object', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['user_posts', 'user_photos']);
    assert.deepEqual((await subscribe({ object: 'permissions', fields: 'user_photos' })).body, SUCCESS);
    const seen = receiver.notifications().length;
    const revoked = await server.fetch(`${server.url}/v2.4/me/permissions/user_photos?access_token=${token}`, { method: 'DELETE' });
    assert.deepEqual(revoked.body, SUCCESS, revoked.text);
    await eventually(() => receiver.notifications().slice(seen).some((request) => JSON.parse(request.body).object === 'permissions'), 'the permissions notification');
    const request = receiver.notifications().slice(seen).find((candidate) => JSON.parse(candidate.body).object === 'permissions')!;
    assertSigned(request, fixture.app.secret);
    assert.deepEqual(JSON.parse(request.body).entry, [{ uid: fixture.scoped(fixture.users.alice), id: fixture.scoped(fixture.users.alice), time: fixture.now, changed_fields: ['user_photos'] }]);
  });

  it('installs the app on a page, lists and removes it', async () => {
    const page = String(fixture.pages[0]);
    const installed = () => server.get(`/v2.4/${page}/subscribed_apps`, { access_token: appToken });
    assert.deepEqual((await installed()).body, { data: [] });
    assert.deepEqual((await server.form(`/v2.4/${page}/subscribed_apps`, { access_token: appToken })).body, SUCCESS);
    assert.deepEqual((await installed()).body, { data: [{ id: String(fixture.app.id), name: 'Test App' }] });
    assert.deepEqual((await server.form(`/v2.4/${page}/subscribed_apps`, { access_token: appToken }, 'DELETE')).body, SUCCESS);
    assert.deepEqual((await installed()).body, { data: [] });
    const notAPage = await server.form(`/v2.4/${fixture.users.alice}/subscribed_apps`, { access_token: appToken });
    assert.equal(notAPage.body.error.code, 100);
  });

  it('removes one object\'s subscription or all of them', async () => {
    assert.deepEqual((await server.form(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken, object: 'user' }, 'DELETE')).body, SUCCESS);
    assert.deepEqual(
      (await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken })).body.data.map((sub: { object: string }) => sub.object),
      ['permissions'],
    );
    assert.deepEqual((await server.fetch(`${server.url}/v2.4/${fixture.app.id}/subscriptions?access_token=${encodeURIComponent(appToken)}`, { method: 'DELETE' })).body, SUCCESS);
    assert.deepEqual((await server.get(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken })).body, { data: [] });
  });
});
