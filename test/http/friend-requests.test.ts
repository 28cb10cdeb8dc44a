import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

const SUCCESS = '{"success":true}';

interface TestUser {
  id: string;
  access_token: string;
}

describe('friend requests over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  async function testUser(name: string, permissions = 'public_profile,user_friends'): Promise<TestUser> {
    const reply = await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, name, permissions });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  }

  const ask = (from: TestUser, to: TestUser, token = from.access_token) =>
    server.form(`/v2.4/${from.id}/friends/${to.id}`, { access_token: token });
  const friends = (user: TestUser) => server.get('/v2.4/me/friends', { access_token: user.access_token, fields: 'name' });
  const requests = (user: TestUser, params: Record<string, string> = {}) =>
    server.get('/v2.4/me/friendrequests', { access_token: user.access_token, ...params });

  function assertError(reply: Reply, status: number, code: number) {
    assert.equal(reply.status, status, reply.text);
    assert.equal(reply.body.error.code, code, reply.text);
  }

  it('makes two people friends only once the second confirms the first one\'s request', async () => {
    const ann = await testUser('Ann Asker');
    const ben = await testUser('Ben Bidden');

    assert.equal((await ask(ann, ben)).text, SUCCESS);
    assert.deepEqual((await friends(ann)).body, { data: [], summary: { total_count: 0 } }, 'not friends yet');
    assert.deepEqual((await friends(ben)).body, { data: [], summary: { total_count: 0 } });
    const pending = await requests(ben);
    assert.equal(pending.body.data.length, 1);
    const [request] = pending.body.data;
    assert.deepEqual(Object.keys(request), ['from', 'to', 'created_time']);
    assert.deepEqual(request.from, { name: 'Ann Asker', id: ann.id });
    assert.deepEqual(request.to, { name: 'Ben Bidden', id: ben.id });
    assert.equal(request.created_time, '2025-10-09T08:53:20+0000');
    assert.deepEqual((await requests(ann)).body, { data: [] }, 'requests are listed for their recipient');

    assert.equal((await ask(ann, ben)).text, SUCCESS, 'asking again changes nothing');
    assert.equal((await requests(ben)).body.data.length, 1);

    assert.equal((await ask(ben, ann)).text, SUCCESS);
    const annFriends = await friends(ann);
    assert.deepEqual(annFriends.body.data, [{ name: 'Ben Bidden', id: ben.id }]);
    assert.deepEqual(annFriends.body.summary, { total_count: 1 });
    assert.deepEqual((await friends(ben)).body.data, [{ name: 'Ann Asker', id: ann.id }]);
    assert.deepEqual((await requests(ben)).body, { data: [] }, 'the request is settled');

    for (const [from, to] of [[ann, ben], [ben, ann]] as const) assert.equal((await ask(from, to)).text, SUCCESS);
    assert.equal((await friends(ann)).body.summary.total_count, 1, 'counts stay exact');
    assert.equal((await friends(ben)).body.summary.total_count, 1);
    assert.deepEqual((await requests(ann)).body, { data: [] }, 'asking a friend opens no request');
  });

  it('pages pending requests, newest first, and shows them to their recipient only', async () => {
    const popular = await testUser('Pat Popular');
    const askers = [];
    for (const name of ['Una One', 'Tom Two', 'Tia Three']) {
      const asker = await testUser(name);
      askers.push(asker);
      assert.equal((await ask(asker, popular)).text, SUCCESS);
    }
    const first = await requests(popular, { limit: '2' });
    assert.equal(first.body.data.length, 2);
    assert.ok(first.body.paging.next);
    const second = await server.fetch(first.body.paging.next);
    const senders = [...first.body.data, ...second.body.data].map((request: any) => request.from.id);
    assert.deepEqual(senders, askers.map((asker) => asker.id).reverse(), 'asked at the same second, so the latest asker first');
    assert.equal(second.body.paging.next, undefined);

    const peek = await server.get(`/v2.4/${popular.id}/friendrequests`, { access_token: askers[0]!.access_token });
    assert.deepEqual(peek.body, { data: [] });
    const nested = await server.get('/v2.4/me', { access_token: popular.access_token, fields: 'friendrequests.limit(1)' });
    assert.equal(nested.body.friendrequests.data.length, 1);
  });

  it('befriends test users whose tokens carry no permission but public_profile', async () => {
    const shy = await testUser('Shy Person', 'public_profile');
    const quiet = await testUser('Quiet Person', 'public_profile');
    assert.equal((await ask(shy, quiet)).text, SUCCESS);
    assert.equal((await ask(quiet, shy)).text, SUCCESS);
    const mine = await server.get(`/v2.4/${shy.id}/friends`, { access_token: appToken, fields: 'id' });
    assert.equal(mine.status, 200, mine.text);
    const withFriends = await testUser('Friendly Person');
    assert.equal((await ask(withFriends, quiet)).text, SUCCESS);
    assert.equal((await ask(quiet, withFriends)).text, SUCCESS);
    assert.deepEqual((await friends(withFriends)).body.summary, { total_count: 1 });
  });

  it('refuses requests for someone else, to oneself, to nobody, and with an app token', async () => {
    const ann = await testUser('Ann Again');
    const ben = await testUser('Ben Again');
    assertError(await ask(ben, ann, ann.access_token), 403, 200);
    assertError(await ask(ann, ann), 400, 100);
    assertError(await server.form('/v2.4/me/friends', { access_token: ann.access_token }), 400, 100);
    assertError(await server.form(`/v2.4/me/friends/${ann.id}9`, { access_token: ann.access_token }), 400, 100);
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    assertError(await server.form(`/v2.4/me/friends/${post}`, { access_token: ann.access_token }), 400, 100);
    assertError(await ask(ann, ben, appToken), 400, 2500);
    assertError(await server.form(`/v2.4/me/feed/${ann.id}`, { access_token: ann.access_token, message: 'x' }), 400, 2500);
    const unfriend = await server.fetch(`${server.url}/v2.4/me/friends/${ben.id}?access_token=${ann.access_token}`, { method: 'DELETE' });
    assertError(unfriend, 400, 100);
    assert.deepEqual((await requests(ann)).body, { data: [] }, 'nothing was recorded');
    assert.deepEqual((await requests(ben)).body, { data: [] });
  });
});
