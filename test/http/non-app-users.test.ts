import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { addMediaGraph, type MediaGraph } from '../helpers/media-graph.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

// Carol is Alice's friend but never used the fixture's app; Bob is a friend who uses it.
describe('people who never used the app', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let graph: MediaGraph;
  let carol: string;
  let carolsPost: string;
  let carolsPhoto: number;
  let bobsPost: string;
  let bobsWallPostToCarol: string;
  let carolsWallPostToAlice: string;
  let carolsWallPostToStranger: string;

  before(async () => {
    ({ fixture, server } = served);
    graph = await addMediaGraph(fixture);
    const { alice, bob, dave } = fixture.users;
    const carolId = fixture.users.carol;
    carol = fixture.scoped(carolId);
    await fixture.store.write([{ op: 'updateObject', id: carolId, data: { birthday: '07/08/1991', gender: 'female', locale: 'en_GB' }, updatedTime: fixture.now - 100 }]);
    const friendsOnly = { value: 'ALL_FRIENDS' };
    const [post, photo, other, stranger] = (
      await fixture.store.write([
        { op: 'createObject', object: { type: 'post', owner: carolId, createdTime: fixture.now - 60, data: { message: 'Carol only for friends', privacy: friendsOnly } } },
        { op: 'createObject', object: { type: 'photo', owner: carolId, createdTime: fixture.now - 50, data: { name: 'Carol at the lake', width: 10, height: 10, privacy: friendsOnly } } },
        { op: 'createObject', object: { type: 'post', owner: bob, createdTime: fixture.now - 40, data: { message: 'Bob for friends', privacy: friendsOnly } } },
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: fixture.now - 40, data: { name: 'Sam Stranger' } } },
      ])
    ).results as number[];
    await fixture.store.write([
      { op: 'addAssoc', type: 'posts', id1: carolId, id2: post!, time: fixture.now - 60 },
      { op: 'addAssoc', type: 'feed', id1: carolId, id2: post!, time: fixture.now - 60 },
      { op: 'addAssoc', type: 'photos', id1: carolId, id2: photo!, time: fixture.now - 50 },
    ]);
    // What Carol did around app users: a like and a comment on Bob's post, a post Bob wrote on
    // her wall, one she wrote on Alice's, Alice's partner, an RSVP and a group.
    const bobs = fixture.posts.bobs;
    const [carolsComment, toCarol, toAlice, toStranger] = (
      await fixture.store.write([
        { op: 'createObject', object: { type: 'comment', owner: carolId, createdTime: fixture.now - 30, data: { message: 'Carol was here', parent: bobs, thread: bobs } } },
        { op: 'createObject', object: { type: 'post', owner: bob, createdTime: fixture.now - 20, data: { message: "Bob on Carol's wall", to: [carolId], privacy: { value: 'EVERYONE' } } } },
        { op: 'createObject', object: { type: 'post', owner: carolId, createdTime: fixture.now - 15, data: { message: "Carol on Alice's wall", to: [alice], privacy: { value: 'EVERYONE' } } } },
        { op: 'createObject', object: { type: 'post', owner: carolId, createdTime: fixture.now - 14, data: { message: "Carol on Sam's wall", to: [stranger], privacy: { value: 'EVERYONE' } } } },
      ])
    ).results as number[];
    await fixture.store.write([
      { op: 'addAssoc', type: 'likes', id1: bobs, id2: carolId, time: fixture.now - 30 },
      { op: 'addAssoc', type: 'likes', id1: bobs, id2: dave, time: fixture.now - 29 },
      { op: 'addAssoc', type: 'comments', id1: bobs, id2: carolsComment!, time: fixture.now - 30 },
      { op: 'addAssoc', type: 'posts', id1: bob, id2: toCarol!, time: fixture.now - 20 },
      { op: 'addAssoc', type: 'feed', id1: carolId, id2: toCarol!, time: fixture.now - 20 },
      { op: 'addAssoc', type: 'feed', id1: alice, id2: toAlice!, time: fixture.now - 15 },
      { op: 'addAssoc', type: 'feed', id1: stranger!, id2: toStranger!, time: fixture.now - 14 },
      { op: 'addAssoc', type: 'members', id1: graph.groups.weavers, id2: carolId, time: fixture.now - 10 },
      { op: 'updateObject', id: alice, data: { significant_other: carolId }, updatedTime: fixture.now - 10 },
    ]);
    bobsWallPostToCarol = fixture.postId(toCarol!, bob);
    carolsWallPostToAlice = fixture.postId(toAlice!, carolId);
    carolsWallPostToStranger = fixture.postId(toStranger!, carolId);
    carolsPost = fixture.postId(post!, carolId);
    carolsPhoto = photo!;
    bobsPost = fixture.postId(other!, bob);
  });

  const get = async (path: string, params: Record<string, string> = {}) => {
    const reply = await server.get(path, { access_token: fixture.aliceToken, ...params });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };
  const assertUnknown = (reply: { status: number; body: any }, id: string) => {
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 100);
    assert.match(reply.body.error.message, new RegExp(`Object with ID '${id}' does not exist`));
  };
  const carolsProfile = () => ({ name: 'Carol Crane', first_name: 'Carol', last_name: 'Crane', id: carol });

  it('shows their public profile and nothing more, and their timeline as empty', async () => {
    const profile = await get(`/v2.4/${carol}`, { fields: 'name,first_name,last_name,picture,birthday,gender,locale,link,friends' });
    const { picture, ...rest } = profile;
    assert.deepEqual(rest, carolsProfile());
    assert.equal(typeof picture.data.url, 'string');
    for (const edge of ['posts', 'feed', 'photos', 'albums', 'friends', 'likes']) {
      assert.deepEqual(await get(`/v2.4/${carol}/${edge}`), { data: [] }, edge);
    }
    // What is hers stays closed to the app, friends or not.
    assertUnknown(await server.get(`/v2.4/${carolsPost}`, { access_token: fixture.aliceToken, fields: 'message' }), carolsPost);
    assertUnknown(await server.get(`/v2.4/${carolsPhoto}`, { access_token: fixture.aliceToken, fields: 'name' }), String(carolsPhoto));
    // The same reads of a friend who uses the app work, so the refusals above are the rule's.
    assert.equal((await get(`/v2.4/${bobsPost}`, { fields: 'message' })).message, 'Bob for friends');
    const bob = fixture.scoped(fixture.users.bob);
    assert.deepEqual(await get(`/v2.4/${bob}`, { fields: 'name,link' }), { name: 'Bob Brook', link: `https://www.facebook.com/app_scoped_user_id/${bob}/`, id: bob });
    assert.equal((await get(`/v2.4/${bob}/posts`, { fields: 'message' })).data.some((item: { message?: string }) => item.message === "Bob's news"), true);
  });

  it('lists them among likers and commenters, with their public profile, counted as listed', async () => {
    const bobs = fixture.postId(fixture.posts.bobs, fixture.users.bob);
    const { alice, dave } = fixture.users;
    const likes = await get(`/v2.4/${bobs}/likes`, { summary: 'true', fields: 'name,first_name,last_name,picture,birthday' });
    assert.deepEqual(likes.data.map((liker: { id: string }) => liker.id), [fixture.scoped(dave), carol, fixture.scoped(alice)]);
    const { picture, ...rest } = likes.data[1];
    assert.deepEqual(rest, carolsProfile());
    assert.equal(typeof picture.data.url, 'string');
    assert.equal(likes.data[2].birthday, '04/12/1990', "Alice's own birthday");
    assert.equal(likes.summary.total_count, likes.data.length);

    const nested = await get(`/v2.4/${bobs}`, { fields: 'likes.limit(10){name},comments.summary(true){from{name,birthday},message}' });
    assert.deepEqual(nested.likes.data.map((liker: { name: string }) => liker.name), ['Dave Dale', 'Carol Crane', 'Alice Arden']);
    const comment = nested.comments.data.find((item: { message: string }) => item.message === 'Carol was here');
    assert.deepEqual(comment?.from, { name: 'Carol Crane', id: carol });
    assert.equal(nested.comments.summary.total_count, nested.comments.data.length);
  });

  it('shows them as `to` and `from` of posts on walls, without opening the walls of those who never used the app', async () => {
    const wallPost = await get(`/v2.4/${bobsWallPostToCarol}`, { fields: 'message,from,to{name,link}' });
    assert.equal(wallPost.message, "Bob on Carol's wall");
    assert.equal(wallPost.from.id, fixture.scoped(fixture.users.bob));
    assert.deepEqual(wallPost.to, { data: [{ name: 'Carol Crane', id: carol }] });
    const onAlices = await get(`/v2.4/${carolsWallPostToAlice}`, { fields: 'message,from{name,gender},to' });
    assert.equal(onAlices.message, "Carol on Alice's wall");
    assert.deepEqual(onAlices.from, { name: 'Carol Crane', id: carol });
    const feed = await get('/v2.4/me/feed', { fields: 'message,from' });
    assert.ok(feed.data.some((post: { id: string }) => post.id === carolsWallPostToAlice), JSON.stringify(feed));
    // Written to someone else who never used the app: still hers alone.
    assertUnknown(await server.get(`/v2.4/${carolsWallPostToStranger}`, { access_token: fixture.aliceToken }), carolsWallPostToStranger);
    const me = await get('/v2.4/me', { fields: 'significant_other' });
    assert.deepEqual(me.significant_other, { name: 'Carol Crane', id: carol });
  });

  it('lists them among guests and members', async () => {
    const maybe = await get(`/v2.4/${graph.events.party}/maybe`, { fields: 'name,link' });
    assert.deepEqual(maybe.data, [{ name: 'Carol Crane', id: carol }]);
    const invited = await get(`/v2.4/${graph.events.party}/invited`, { limit: '100' });
    assert.ok(invited.data.some((guest: { id: string }) => guest.id === carol));
    const members = await get(`/v2.4/${graph.groups.weavers}/members`, { fields: 'name' });
    assert.deepEqual(members.data[0], { name: 'Carol Crane', id: carol });
  });

  it('counts them among friends without listing them', async () => {
    const friends = await get('/v2.4/me/friends', { limit: '100' });
    const ids = friends.data.map((friend: { id: string }) => friend.id);
    assert.ok(!ids.includes(carol));
    assert.equal(friends.summary.total_count, ids.length + 1, 'Carol is counted');
    const nested = await get('/v2.4/me', { fields: 'friends.limit(100){name}' });
    assert.ok(!nested.friends.data.some((friend: { id: string }) => friend.id === carol));
    assert.equal(nested.friends.summary.total_count, nested.friends.data.length + 1);
  });

  it('shows them in full once they use the app', async () => {
    const carolToken = await fixture.tokenFor(fixture.users.carol, ['public_profile', 'user_posts', 'user_birthday']);
    assert.ok(carolToken);
    assert.equal((await get(`/v2.4/${carolsPost}`, { fields: 'message' })).message, 'Carol only for friends');
    assert.deepEqual(await get(`/v2.4/${carol}`, { fields: 'name,birthday' }), { name: 'Carol Crane', birthday: '07/08/1991', id: carol });
    const posts = await get(`/v2.4/${carol}/posts`, { fields: 'message' });
    assert.deepEqual(posts.data.map((post: { message: string }) => post.message), ['Carol only for friends']);
    assert.equal((await get(`/v2.4/${carolsWallPostToStranger}`, { fields: 'message' })).message, "Carol on Sam's wall");
  });
});
