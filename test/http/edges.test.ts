import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { unemulatedEdge } from '../../src/schema/unemulated.js';
import { rules } from '../../src/schema/versions.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('edge reads over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  let me: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
    me = fixture.scoped(fixture.users.alice);
  });

  it('lists only friends who use the app, with a total that counts every friend', async () => {
    const reply = await server.get('/v2.4/me/friends', { access_token: token, fields: 'name', limit: '100' });
    assert.equal(reply.status, 200);
    const names = reply.body.data.map((friend: { name: string }) => friend.name);
    assert.equal(names.length, 25, 'bob and 24 app friends; carol does not use the app');
    assert.ok(names.includes('Bob Brook'));
    assert.ok(!names.includes('Carol Crane'));
    assert.deepEqual(reply.body.summary, { total_count: 26 });
    assert.deepEqual(Object.keys(reply.body.data[0]), ['name', 'id']);
    assert.deepEqual(Object.keys(reply.body), ['data', 'paging', 'summary']);
  });

  it('answers the posts of a user with ids and created times, bounded by since', async () => {
    const all = await server.get(`/v2.4/${me}/posts`, { access_token: token, fields: 'id,created_time' });
    assert.equal(all.body.data.length, 3);
    for (const post of all.body.data) {
      assert.deepEqual(Object.keys(post), ['id', 'created_time']);
      assert.match(post.id, new RegExp(`^${me}_\\d+$`));
      assert.match(post.created_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    }
    const recent = await server.get(`/v2.4/${me}/posts`, { access_token: token, since: String(fixture.now - 6 * 86_400) });
    assert.deepEqual(recent.body.data.map((post: { id: string }) => post.id), all.body.data.slice(0, 2).map((post: { id: string }) => post.id));
    const until = await server.get(`/v2.4/${me}/posts`, { access_token: token, until: String(fixture.now - 6 * 86_400) });
    assert.equal(until.body.data.length, 1);
    const limited = await server.get(`/v2.4/${me}/posts`, { access_token: token, limit: '1' });
    assert.equal(limited.body.data.length, 1);
    assert.ok(limited.body.paging.next);
  });

  it("answers an empty page for a friend who did not grant user_posts, and their posts for one who did", async () => {
    const dave = await server.get(`/v2.4/${fixture.scoped(fixture.users.dave)}/posts`, { access_token: token });
    assert.deepEqual(dave.body, { data: [] });
    const bob = await server.get(`/v2.4/${fixture.scoped(fixture.users.bob)}/posts`, { access_token: token });
    assert.deepEqual(bob.body.data.map((post: { message: string }) => post.message), ["Bob's news"], 'the only-me post stays hidden');
  });

  it('summarises likes with total_count, can_like and has_liked', async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const reply = await server.get(`/v2.4/${popular}/likes`, { access_token: token, fields: 'name', limit: '2', summary: 'true' });
    assert.deepEqual(reply.body.summary, { total_count: 1000, can_like: true, has_liked: false });
    assert.deepEqual(Object.keys(reply.body.data[0]), ['name', 'id']);
    const bobs = fixture.postId(fixture.posts.bobs, fixture.users.bob);
    const liked = await server.get(`/v2.4/${bobs}/likes`, { access_token: token, summary: 'true' });
    assert.deepEqual(liked.body.summary, { total_count: 1, can_like: true, has_liked: true });
    assert.deepEqual(liked.body.data, [{ name: 'Alice Arden', id: me }]);
  });

  it('summarises comments with order, total_count and can_comment', async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const reply = await server.get(`/v2.4/${popular}/comments`, { access_token: token, summary: 'true' });
    assert.deepEqual(reply.body.summary, { order: 'chronological', total_count: 3, can_comment: true });
    assert.deepEqual(Object.keys(reply.body.data[0]), ['created_time', 'from', 'message', 'id']);
  });

  it('answers limit=0 with an empty page and the summary, and no paging', async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const edge = await server.get(`/v2.4/${popular}/likes`, { access_token: token, limit: '0', summary: 'true' });
    assert.equal(edge.text, '{"data":[],"summary":{"total_count":1000,"can_like":true,"has_liked":false}}');
    const nested = await server.get(`/v2.4/${popular}`, { access_token: token, fields: 'likes.limit(0).summary(true)' });
    assert.deepEqual(nested.body.likes, { data: [], summary: { total_count: 1000, can_like: true, has_liked: false } });
  });

  it('reaches the same collection through a field and through an edge path', async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const viaField = await server.get(`/v2.4/${popular}`, { access_token: token, fields: 'likes' });
    const viaEdge = await server.get(`/v2.4/${popular}/likes`, { access_token: token });
    assert.deepEqual(viaField.body.likes.data, viaEdge.body.data);
    assert.deepEqual(viaField.body.likes.paging.cursors, viaEdge.body.paging.cursors);
    const photosField = await server.get('/v2.4/me', { access_token: token, fields: 'photos.limit(10)' });
    const photosEdge = await server.get('/v2.4/me/photos', { access_token: token, limit: '10' });
    assert.equal(photosEdge.body.data.length, 5);
    assert.deepEqual(photosField.body.photos.data, photosEdge.body.data);
  });

  it('answers each of the 68 user edges with a collection (picture: its description), but for the errors of unemulated products and retired edges', async () => {
    const schema = graphSchema();
    const edges = schema.edgesIn(schema.type('user')!, 'v2.4');
    assert.equal(edges.length, 68);
    for (const edge of edges) {
      // Without redirect=false, picture redirects to the image (covered by the media tests).
      const params: Record<string, string> = edge.name === 'picture' ? { access_token: token, redirect: 'false' } : { access_token: token };
      const reply = await server.get(`/v2.4/me/${edge.name}`, params);
      const answer = unemulatedEdge('user', edge.name)?.answer;
      if ((edge.servedWhile && !rules.has(edge.servedWhile, 'v2.4')) || answer?.kind === 'error') {
        assert.ok(reply.status === 400 || reply.status === 403, `${edge.name}: ${reply.text}`);
        assert.equal(reply.body.error.code, edge.servedWhile ? 12 : answer?.kind === 'error' ? answer.code : undefined, edge.name);
        continue;
      }
      assert.equal(reply.status, 200, edge.name);
      assert.ok('data' in reply.body, edge.name);
      if (edge.name !== 'picture') assert.ok(Array.isArray(reply.body.data), edge.name);
    }
  });

  it('describes the user with metadata=1: type, 51 fields and 68 absolute connections', async () => {
    const reply = await server.get('/v2.4/me', { access_token: token, metadata: '1' });
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body), ['name', 'metadata', 'id']);
    const { metadata } = reply.body;
    assert.equal(metadata.type, 'user');
    assert.equal(metadata.fields.length, 51);
    for (const field of metadata.fields) {
      assert.deepEqual(Object.keys(field), ['name', 'description', 'type']);
      assert.ok(field.description.length > 0 && field.type.length > 0, field.name);
    }
    const connections = Object.entries<string>(metadata.connections);
    assert.equal(connections.length, 68);
    for (const [edge, url] of connections) {
      assert.ok(url.startsWith(`${server.url}/v2.4/${me}/${edge}?access_token=`), url);
    }
    const friends = await server.fetch(metadata.connections.friends);
    assert.equal(friends.status, 200);
    assert.equal(friends.body.summary.total_count, 26);
  });

  it('describes other node types too', async () => {
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const reply = await server.get(`/v2.4/${popular}`, { access_token: token, metadata: '1' });
    assert.equal(reply.body.metadata.type, 'post');
    assert.ok(reply.body.metadata.connections.likes);
  });
});
