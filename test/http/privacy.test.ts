import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

const WRITER = ['public_profile', 'user_photos', 'user_posts', 'publish_actions'];

// Alice is friends with bob and carol, not with dave.
describe('comments and albums follow the privacy of what they belong to', () => {
  let fixture: Fixture;
  let server: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    alice = fixture.aliceToken;
    bob = await fixture.tokenFor(fixture.users.bob, WRITER);
    carol = await fixture.tokenFor(fixture.users.carol, WRITER);
    dave = await fixture.tokenFor(fixture.users.dave, WRITER);
  });

  const form = (path: string, token: string, fields: Record<string, string> = {}) => server.form(path, { access_token: token, ...fields });
  const created = async (path: string, token: string, fields: Record<string, string>): Promise<Reply> => {
    const reply = await form(path, token, fields);
    assert.equal(reply.status, 200, reply.text);
    return reply;
  };
  const assertMissing = (reply: Reply, what: string) => {
    assert.equal(reply.status, 400, `${what}: ${reply.text}`);
    assert.equal(reply.body.error.code, 100, what);
    assert.match(reply.body.error.message, /does not exist/, what);
  };
  const names = (reply: Reply) => reply.body.data.map((item: { name?: string; message?: string }) => item.name ?? item.message);

  function upload(path: string, token: string, fields: Record<string, string> = {}) {
    const body = new FormData();
    body.set('access_token', token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set('source', new Blob([new Uint8Array(pngBytes(4, 3))], { type: 'image/png' }), 'picture.png');
    return server.fetch(`${server.url}${path}`, { method: 'POST', body });
  }

  /** Asserts that `token` can neither read these comments nor answer or like them, and that nothing was written. */
  async function assertSealed(token: string, who: string, ids: string[]): Promise<void> {
    for (const id of ids) {
      assertMissing(await server.get(`/v2.4/${id}`, { access_token: token, fields: 'message,from' }), `${who} reads ${id}`);
      assertMissing(await server.get(`/v2.4/${id}/comments`, { access_token: token }), `${who} lists replies of ${id}`);
      assertMissing(await server.get(`/v2.4/${id}/likes`, { access_token: token }), `${who} lists likes of ${id}`);
      assertMissing(await form(`/v2.4/${id}/comments`, token, { message: 'let me in', fields: 'message,object{message}' }), `${who} replies to ${id}`);
      assertMissing(await form(`/v2.4/${id}/likes`, token), `${who} likes ${id}`);
    }
    for (const id of ids) {
      const read = await server.get(`/v2.4/${id}`, { access_token: alice, fields: 'like_count,comment_count' });
      assert.equal(read.body.like_count, 0, `no like of ${who} on ${id}`);
    }
  }

  it("hides the comments and replies of a post only its author sees, from friends and strangers alike", async () => {
    const post = (await created('/v2.4/me/feed', alice, { message: 'Just for me', privacy: '{"value":"SELF"}' })).body.id;
    const comment = (await created(`/v2.4/${post}/comments`, alice, { message: 'note to self' })).body.id;
    const reply = (await created(`/v2.4/${comment}/comments`, alice, { message: 'reply to self' })).body.id;

    await assertSealed(dave, 'dave', [comment, reply]);
    await assertSealed(bob, 'bob', [comment, reply]);

    const own = await server.get(`/v2.4/${comment}`, { access_token: alice, fields: 'message,comment_count,comments{message},object{message}' });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.message, 'note to self');
    assert.equal(own.body.comment_count, 1, 'no reply of bob or dave was written');
    assert.deepEqual(names({ body: own.body.comments } as Reply), ['reply to self']);
    assert.equal(own.body.object.message, 'Just for me');
    const stream = await server.get(`/v2.4/${post}/comments`, { access_token: alice, filter: 'stream', summary: 'true' });
    assert.deepEqual(names(stream), ['note to self', 'reply to self']);
    assert.equal(stream.body.summary.total_count, 2);
  });

  it("shows a friends-only post's comments to the author's friends, everywhere they appear, and to nobody else", async () => {
    const post = (await created('/v2.4/me/feed', alice, { message: 'Friends, dinner?' })).body.id;
    const comment = (await created(`/v2.4/${post}/comments`, bob, { message: 'Count me in', fields: 'message,from{name}' })).body;
    assert.deepEqual(comment.from.name, 'Bob Brook', 'read back after the write');
    const reply = (await created(`/v2.4/${comment.id}/comments`, carol, { message: 'Me too' })).body.id;

    const direct = await server.get(`/v2.4/${comment.id}`, { access_token: carol, fields: 'message' });
    assert.equal(direct.body.message, 'Count me in');
    const listed = await server.get(`/v2.4/${post}/comments`, { access_token: carol, filter: 'stream' });
    assert.deepEqual(names(listed), ['Count me in', 'Me too']);
    const nested = await server.get(`/v2.4/${post}`, { access_token: carol, fields: 'comments{message,comments{message}}' });
    assert.deepEqual(names({ body: nested.body.comments } as Reply), ['Count me in']);
    assert.deepEqual(names({ body: nested.body.comments.data[0].comments } as Reply), ['Me too']);

    await assertSealed(dave, 'dave', [comment.id, reply]);
  });

  it("shows the comments of a public post to anyone, and hides a friends-only photo's from strangers", async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const listed = await server.get(`/v2.4/${popular}/comments`, { access_token: dave, fields: 'id,message' });
    assert.deepEqual(names(listed), ['Comment 1', 'Comment 2', 'Comment 3']);
    const one = await server.get(`/v2.4/${listed.body.data[0].id}`, { access_token: dave, fields: 'message,object{message}' });
    assert.deepEqual(one.body, { message: 'Comment 1', object: { message: 'Hello, loom', id: popular }, id: listed.body.data[0].id });

    const photo = String(fixture.photos[1]);
    const comment = (await created(`/v2.4/${photo}/comments`, bob, { message: 'Lovely light' })).body.id;
    assert.equal((await server.get(`/v2.4/${comment}`, { access_token: carol, fields: 'message' })).body.message, 'Lovely light');
    await assertSealed(dave, 'dave', [comment]);
  });

  it('hides comments stored before threads were, by following their parents', async () => {
    // Bob's post only he may see; alice is his friend but not its audience.
    const secret = fixture.posts.secret;
    const [comment] = (await fixture.store.write([
      { op: 'createObject', object: { type: 'comment', owner: fixture.users.bob, createdTime: fixture.now, data: { message: 'old note', parent: secret } } },
      { op: 'addAssoc', type: 'comments', id1: secret, id2: { ref: 0 }, time: fixture.now },
    ])).results as number[];
    const [reply] = (await fixture.store.write([
      { op: 'createObject', object: { type: 'comment', owner: fixture.users.bob, createdTime: fixture.now, data: { message: 'old reply', parent: comment } } },
      { op: 'addAssoc', type: 'comments', id1: comment!, id2: { ref: 0 }, time: fixture.now },
    ])).results as number[];
    for (const id of [comment, reply]) {
      assertMissing(await server.get(`/v2.4/${id}`, { access_token: alice, fields: 'message' }), `alice reads ${id}`);
      assert.equal((await server.get(`/v2.4/${id}`, { access_token: bob, fields: 'message' })).status, 200, `bob reads ${id}`);
    }
  });

  it("lists and shows a person's albums only to the audience each album names", async () => {
    const album = async (name: string, privacy?: string) =>
      (await created('/v2.4/me/albums', alice, { name, ...(privacy ? { privacy: `{"value":"${privacy}"}` } : {}) })).body.id as string;
    const mine = await album('Only mine', 'SELF');
    const friends = await album('For friends');
    const open = await album('For everyone', 'EVERYONE');

    const read = (id: string, token: string) => server.get(`/v2.4/${id}`, { access_token: token, fields: 'name,privacy' });
    assert.deepEqual((await read(mine, alice)).body, { name: 'Only mine', privacy: 'self', id: mine });
    assert.deepEqual((await read(friends, bob)).body, { name: 'For friends', privacy: 'friends', id: friends });
    assert.deepEqual((await read(open, dave)).body, { name: 'For everyone', privacy: 'everyone', id: open });
    assertMissing(await read(mine, bob), 'bob reads the SELF album');
    assertMissing(await read(mine, dave), 'dave reads the SELF album');
    assertMissing(await read(friends, dave), 'dave reads the friends album');
    assertMissing(await read(String(fixture.album), dave), "dave reads the fixture's friends album");

    const me = fixture.scoped(fixture.users.alice);
    const listedTo = async (token: string) => names(await server.get(`/v2.4/${me}/albums`, { access_token: token, fields: 'name', limit: '10' }));
    assert.deepEqual(await listedTo(alice), ['For everyone', 'For friends', 'Only mine', 'Holidays']);
    assert.deepEqual(await listedTo(bob), ['For everyone', 'For friends', 'Holidays']);
    assert.deepEqual(await listedTo(dave), ['For everyone']);
    const nested = await server.get(`/v2.4/${me}`, { access_token: dave, fields: 'albums{name}' });
    assert.deepEqual(names({ body: nested.body.albums } as Reply), ['For everyone']);
  });

  it("gives a photo added to an album the album's privacy unless it names its own", async () => {
    const album = async (privacy: string) => (await created('/v2.4/me/albums', alice, { name: privacy, privacy: `{"value":"${privacy}"}` })).body.id as string;
    const mine = await album('SELF');
    const open = await album('EVERYONE');

    const hidden = (await upload(`/v2.4/${mine}/photos`, alice, { caption: 'private' })).body;
    assert.equal((await server.get(`/v2.4/${hidden.id}`, { access_token: alice, fields: 'name' })).body.name, 'private');
    for (const [who, token] of [['bob', bob], ['dave', dave]] as const) {
      assertMissing(await server.get(`/v2.4/${hidden.id}`, { access_token: token, fields: 'name' }), `${who} reads the photo`);
      assertMissing(await server.get(`/v2.4/${hidden.post_id}`, { access_token: token, fields: 'message' }), `${who} reads its story`);
    }

    const shown = (await upload(`/v2.4/${open}/photos`, alice, { caption: 'public' })).body;
    assert.equal((await server.get(`/v2.4/${shown.id}`, { access_token: dave, fields: 'name' })).body.name, 'public');
    assert.equal((await server.get(`/v2.4/${shown.post_id}`, { access_token: dave, fields: 'message' })).body.message, 'public');

    const ownPrivacy = (await upload(`/v2.4/${mine}/photos`, alice, { caption: 'shared anyway', privacy: '{"value":"EVERYONE"}' })).body;
    const read = await server.get(`/v2.4/${ownPrivacy.id}`, { access_token: dave, fields: 'name,album{name}' });
    assert.deepEqual(read.body, { name: 'shared anyway', id: ownPrivacy.id }, 'the photo shows, its private album does not');
  });
});
