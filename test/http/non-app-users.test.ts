import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer, type TestServer } from '../helpers/server.js';

// Carol is Alice's friend but never used the fixture's app; Bob is a friend who uses it.
describe('people who never used the app', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let carolsPost: string;
  let carolsPhoto: number;
  let bobsPost: string;

  before(async () => {
    ({ fixture, server } = served);
    const { carol, bob } = fixture.users;
    const friendsOnly = { value: 'ALL_FRIENDS' };
    const [post, photo, other] = (
      await fixture.store.write([
        { op: 'createObject', object: { type: 'post', owner: carol, createdTime: fixture.now - 60, data: { message: 'Carol only for friends', privacy: friendsOnly } } },
        { op: 'createObject', object: { type: 'photo', owner: carol, createdTime: fixture.now - 50, data: { name: 'Carol at the lake', width: 10, height: 10, privacy: friendsOnly } } },
        { op: 'createObject', object: { type: 'post', owner: bob, createdTime: fixture.now - 40, data: { message: 'Bob for friends', privacy: friendsOnly } } },
      ])
    ).results as number[];
    await fixture.store.write([
      { op: 'addAssoc', type: 'posts', id1: carol, id2: post!, time: fixture.now - 60 },
      { op: 'addAssoc', type: 'feed', id1: carol, id2: post!, time: fixture.now - 60 },
      { op: 'addAssoc', type: 'photos', id1: carol, id2: photo!, time: fixture.now - 50 },
    ]);
    carolsPost = fixture.postId(post!, carol);
    carolsPhoto = photo!;
    bobsPost = fixture.postId(other!, bob);
  });

  const assertUnknown = (reply: { status: number; body: any }, id: string) => {
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 100);
    assert.match(reply.body.error.message, new RegExp(`Object with ID '${id}' does not exist`));
  };

  it("hides their posts, photos and profile from their friends reading through the app", async () => {
    const token = fixture.aliceToken;
    assertUnknown(await server.get(`/v2.4/${carolsPost}`, { access_token: token, fields: 'message' }), carolsPost);
    assertUnknown(await server.get(`/v2.4/${carolsPhoto}`, { access_token: token, fields: 'name' }), String(carolsPhoto));
    const carol = fixture.scoped(fixture.users.carol);
    assertUnknown(await server.get(`/v2.4/${carol}`, { access_token: token, fields: 'name' }), carol);
    // The same reads of a friend who uses the app work, so the refusals above are the rule's.
    assert.equal((await server.get(`/v2.4/${bobsPost}`, { access_token: token, fields: 'message' })).body.message, 'Bob for friends');
    assert.equal((await server.get(`/v2.4/${fixture.scoped(fixture.users.bob)}`, { access_token: token, fields: 'name' })).body.name, 'Bob Brook');
  });

  it('counts them among friends without listing them', async () => {
    const friends = await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken, limit: '100' });
    const ids = friends.body.data.map((friend: { id: string }) => friend.id);
    assert.ok(!ids.includes(fixture.scoped(fixture.users.carol)));
    assert.equal(friends.body.summary.total_count, ids.length + 1, 'Carol is counted');
  });

  it('shows them again once they use the app', async () => {
    const carolToken = await fixture.tokenFor(fixture.users.carol, ['public_profile']);
    assert.ok(carolToken);
    const reply = await server.get(`/v2.4/${carolsPost}`, { access_token: fixture.aliceToken, fields: 'message' });
    assert.equal(reply.body.message, 'Carol only for friends');
  });
});
