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
  let bobsWallPostToCarol: string;

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
    // What Carol did around app users: a like and a comment on Bob's post, a post Bob wrote on her wall, Alice's partner.
    const bobs = fixture.posts.bobs;
    const [carolsComment, toCarol] = (
      await fixture.store.write([
        { op: 'createObject', object: { type: 'comment', owner: carol, createdTime: fixture.now - 30, data: { message: 'Carol was here', parent: bobs, thread: bobs } } },
        { op: 'createObject', object: { type: 'post', owner: bob, createdTime: fixture.now - 20, data: { message: 'Bob on Carol\'s wall', to: [carol], privacy: { value: 'EVERYONE' } } } },
      ])
    ).results as number[];
    await fixture.store.write([
      { op: 'addAssoc', type: 'likes', id1: bobs, id2: carol, time: fixture.now - 30 },
      { op: 'addAssoc', type: 'likes', id1: bobs, id2: fixture.users.dave, time: fixture.now - 29 },
      { op: 'addAssoc', type: 'comments', id1: bobs, id2: carolsComment!, time: fixture.now - 30 },
      { op: 'addAssoc', type: 'posts', id1: bob, id2: toCarol!, time: fixture.now - 20 },
      { op: 'addAssoc', type: 'feed', id1: carol, id2: toCarol!, time: fixture.now - 20 },
      { op: 'updateObject', id: fixture.users.alice, data: { significant_other: carol }, updatedTime: fixture.now - 10 },
    ]);
    bobsWallPostToCarol = fixture.postId(toCarol!, bob);
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

  it('leaves them out of likes, comments, `to` and references, keeping the items around them', async () => {
    const token = fixture.aliceToken;
    const { alice, carol, dave } = fixture.users;
    const bobs = fixture.postId(fixture.posts.bobs, fixture.users.bob);
    const likes = await server.get(`/v2.4/${bobs}/likes`, { access_token: token, summary: 'true' });
    assert.deepEqual(likes.body.data.map((liker: { id: string }) => liker.id).sort(), [fixture.scoped(alice), fixture.scoped(dave)].sort());
    assert.equal(likes.body.summary.total_count, 3, 'her like is counted');
    // The same people nested in the post, and a liker that uses the app only through another level.
    const nested = await server.get(`/v2.4/${bobs}`, { access_token: token, fields: 'likes.limit(10){name},comments{from{name},message}' });
    assert.deepEqual(nested.body.likes.data.map((liker: { name: string }) => liker.name).sort(), ['Alice Arden', 'Dave Dale']);
    assert.ok(!nested.body.comments?.data.some((comment: { message: string }) => comment.message === 'Carol was here'));
    const comments = await server.get(`/v2.4/${bobs}/comments`, { access_token: token, fields: 'from,message' });
    assert.ok(!comments.body.data.some((comment: { message: string }) => comment.message === 'Carol was here'));

    // Bob's post on her wall stays Bob's post, without her as its `to`.
    const wallPost = await server.get(`/v2.4/${bobsWallPostToCarol}`, { access_token: token, fields: 'message,from,to' });
    assert.equal(wallPost.status, 200, JSON.stringify(wallPost.body));
    assert.equal(wallPost.body.message, "Bob on Carol's wall");
    assert.equal(wallPost.body.from.id, fixture.scoped(fixture.users.bob));
    assert.equal(wallPost.body.to, undefined, JSON.stringify(wallPost.body));
    const bobsPosts = await server.get(`/v2.4/${fixture.scoped(fixture.users.bob)}/posts`, { access_token: token, fields: 'message,to{name}' });
    const listed = bobsPosts.body.data.find((item: { message?: string }) => item.message === "Bob on Carol's wall");
    assert.ok(listed, JSON.stringify(bobsPosts.body));
    assert.equal(listed.to, undefined);

    const me = await server.get('/v2.4/me', { access_token: token, fields: 'name,significant_other,friends.limit(100){name}' });
    assert.equal(me.body.name, 'Alice Arden');
    assert.equal(me.body.significant_other, undefined);
    assert.ok(!me.body.friends.data.some((friend: { id: string }) => friend.id === fixture.scoped(carol)));
    assert.equal(me.body.friends.summary.total_count, me.body.friends.data.length + 1, 'Carol is counted');
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
    const wallPost = await server.get(`/v2.4/${bobsWallPostToCarol}`, { access_token: fixture.aliceToken, fields: 'to' });
    assert.deepEqual(wallPost.body.to, { data: [{ name: 'Carol Crane', id: fixture.scoped(fixture.users.carol) }] });
    const bobs = fixture.postId(fixture.posts.bobs, fixture.users.bob);
    const likes = await server.get(`/v2.4/${bobs}/likes`, { access_token: fixture.aliceToken });
    assert.ok(likes.body.data.some((liker: { id: string }) => liker.id === fixture.scoped(fixture.users.carol)));
  });
});
