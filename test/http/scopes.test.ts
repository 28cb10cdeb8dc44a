import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

/** Alice's own fields and edges are governed by her token's scopes; other people's by what they granted the app. */
describe('permissions enforced from the schema', () => {
  let fixture: Fixture;
  let server: TestServer;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
  });

  function assertPermissionError(reply: Reply, scope: string) {
    assert.equal(reply.status, 403, reply.text);
    assert.deepEqual(
      { message: reply.body.error.message, type: reply.body.error.type, code: reply.body.error.code },
      { message: `(#200) Requires extended permission: ${scope}`, type: 'OAuthException', code: 200 },
    );
  }

  it('leaves a field out of the node until its permission is there', async () => {
    const basic = await fixture.aliceWith();
    const none = await server.get('/v2.4/me', { access_token: basic, fields: 'name,gender,locale,link,email,birthday' });
    assert.deepEqual(Object.keys(none.body), ['name', 'gender', 'locale', 'link', 'id'], 'public_profile fields only');
    for (const [field, scope, value] of [['email', 'email', 'alice@example.com'], ['birthday', 'user_birthday', '04/12/1990']] as const) {
      const reply = await server.get('/v2.4/me', { access_token: await fixture.aliceWith(scope), fields: `name,${field}` });
      assert.equal(reply.body[field], value, field);
    }
  });

  it("reads another person's fields by what that person granted the app", async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const token = fixture.aliceToken;
    const read = async () => (await server.get(`/v2.4/${bob}`, { access_token: token, fields: 'name,birthday' })).body;
    assert.deepEqual(Object.keys(await read()), ['name', 'id'], 'bob granted no user_birthday');
    const nested = await server.get('/v2.4/me/friends', { access_token: token, fields: 'birthday', limit: '100' });
    assert.ok(nested.body.data.every((friend: Record<string, unknown>) => !('birthday' in friend)));
    const before = (await fixture.store.getGrants(fixture.app.id, [fixture.users.bob])).get(fixture.users.bob)!;
    try {
      await fixture.store.setGrants(fixture.app.id, [{ userId: fixture.users.bob, grants: [...before, { scope: 'user_birthday', status: 'granted' }] }]);
      assert.equal((await read()).birthday, '01/02/1985');
      await fixture.store.setGrants(fixture.app.id, [{ userId: fixture.users.bob, grants: [...before, { scope: 'user_birthday', status: 'declined' }] }]);
      assert.equal((await read()).birthday, undefined, 'a declined permission is no permission');
    } finally {
      await fixture.store.setGrants(fixture.app.id, [{ userId: fixture.users.bob, grants: before }]);
    }
  });

  it("keeps a person's email, time zone and verified from other people, whatever they granted the app", async () => {
    const [erin] = (
      await fixture.store.write([
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Erin Eyre', email: 'erin@example.com', timezone: 2, verified: true, favorite_athletes: [{ id: '7', name: 'Ada Runner' }] } } },
      ])
    ).results as number[];
    await fixture.store.write([
      { op: 'addAssoc', type: 'friends', id1: erin!, id2: fixture.users.alice, time: 2 },
      { op: 'addAssoc', type: 'friends', id1: fixture.users.alice, id2: erin!, time: 2 },
    ]);
    const own = await fixture.tokenFor(erin!, ['public_profile', 'user_friends', 'email', 'user_likes']);
    const id = fixture.scoped(erin!);
    const fields = 'name,email,timezone,verified';
    const herself = await server.get('/v2.4/me', { access_token: own, fields });
    assert.deepEqual(herself.body, { name: 'Erin Eyre', email: 'erin@example.com', timezone: 2, verified: true, id });
    const byFriend = await server.get(`/v2.4/${id}`, { access_token: fixture.aliceToken, fields });
    assert.deepEqual(byFriend.body, { name: 'Erin Eyre', id }, 'asked for by name, another person reads none of them');
    const byApp = await server.get(`/v2.4/${id}`, { access_token: `${fixture.app.id}|${fixture.app.secret}`, fields });
    assert.deepEqual(byApp.body, { name: 'Erin Eyre', email: 'erin@example.com', id }, 'the app reads the email she granted it, not her time zone');
    for (const version of ['v2.0', 'v2.3']) {
      const rich = await server.get(`/${version}/${id}`, { access_token: fixture.aliceToken });
      assert.deepEqual(Object.keys(rich.body), ['id', 'favorite_athletes', 'link', 'name', 'updated_time'], `${version}: the profile's defaults, less what is hers alone`);
      const ownRich = await server.get(`/${version}/me`, { access_token: own });
      assert.deepEqual(Object.keys(ownRich.body), ['id', 'email', 'favorite_athletes', 'link', 'name', 'timezone', 'updated_time', 'verified']);
    }
  });

  it('answers an edge without its permission with an empty page, and leaves it out when nested', async () => {
    const edges = [
      ['friends', 'user_friends'],
      ['posts', 'user_posts'],
      ['feed', 'user_posts'],
      ['photos', 'user_photos'],
      ['albums', 'user_photos'],
      ['likes', 'user_likes'],
    ] as const;
    const basic = await fixture.aliceWith();
    for (const [edge, scope] of edges) {
      const without = await server.get(`/v2.4/me/${edge}`, { access_token: basic });
      assert.equal(without.status, 200);
      assert.equal(without.text, '{"data":[]}', edge);
      const nested = await server.get('/v2.4/me', { access_token: basic, fields: `name,${edge}` });
      assert.deepEqual(Object.keys(nested.body), ['name', 'id'], edge);
      const withScope = await server.get(`/v2.4/me/${edge}`, { access_token: await fixture.aliceWith(scope) });
      assert.ok(withScope.body.data.length > 0, `${edge} with ${scope}`);
    }
  });

  it("hides a photo's and an album's content, but not their ids, without user_photos", async () => {
    const photo = String(fixture.photos[0]);
    const album = String(fixture.album);
    const basic = await fixture.aliceWith();
    assert.deepEqual((await server.get(`/v2.4/${photo}`, { access_token: basic, fields: 'name,width,from' })).body, { id: photo });
    assert.deepEqual((await server.get(`/v2.4/${album}`, { access_token: basic })).body, { id: album });
    assert.equal((await server.get(`/v2.4/${album}/photos`, { access_token: basic })).text, '{"data":[]}');
    const photos = await fixture.aliceWith('user_photos');
    assert.deepEqual((await server.get(`/v2.4/${photo}`, { access_token: photos, fields: 'name,width' })).body, { name: 'Photo 0', width: 800, id: photo });
    assert.equal((await server.get(`/v2.4/${album}/photos`, { access_token: photos })).body.data.length, 5);
  });

  it('refuses every write without publish_actions with (#200) and 403, changing nothing', async () => {
    const reader = await fixture.aliceWith('user_posts', 'user_photos', 'user_likes', 'user_friends');
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const photo = String(fixture.photos[0]);
    const likes = async () =>
      (await server.get(`/v2.4/${popular}/likes`, { access_token: fixture.aliceToken, summary: 'true', limit: '0' })).body.summary.total_count;
    const likesBefore = await likes();
    const postsBefore = (await server.get('/v2.4/me/posts', { access_token: fixture.aliceToken, summary: 'true', limit: '0' })).body;
    const writes: Array<() => Promise<Reply>> = [
      () => server.form('/v2.4/me/feed', { access_token: reader, message: 'no' }),
      () => server.form(`/v2.4/${popular}/likes`, { access_token: reader }),
      () => server.form(`/v2.4/${popular}/comments`, { access_token: reader, message: 'no' }),
      () => server.form(`/v2.4/${photo}/likes`, { access_token: reader }),
      () => server.form(`/v2.4/${popular}/likes`, { access_token: reader }, 'DELETE'),
      () => server.form(`/v2.4/${popular}`, { access_token: reader }, 'DELETE'),
    ];
    for (const write of writes) {
      const reply = await write();
      assertPermissionError(reply, 'publish_actions');
      assert.match(reply.headers.get('www-authenticate') ?? '', /^OAuth "Facebook Platform" "insufficient_scope" /);
    }
    assert.equal(await likes(), likesBefore);
    assert.deepEqual((await server.get('/v2.4/me/posts', { access_token: fixture.aliceToken, summary: 'true', limit: '0' })).body, postsBefore);
    assert.equal((await server.get(`/v2.4/${popular}`, { access_token: fixture.aliceToken })).status, 200, 'the post is still there');
  });
});
