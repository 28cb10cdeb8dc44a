import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('ids= over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
  });

  it('answers users, posts and photos together, keyed by each id exactly as given', async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const photo = String(fixture.photos[0]);
    const reply = await server.get('/v2.4/', { access_token: token, ids: `me,${bob},${post},${photo}` });
    assert.equal(reply.status, 200, reply.text);
    // JSON objects list small integer keys (a photo's plain id) first, whatever order they were given in.
    assert.deepEqual(Object.keys(reply.body).sort(), ['me', bob, post, photo].sort());
    for (const [key, path] of [['me', 'me'], [bob, bob], [post, post], [photo, photo]] as const) {
      const alone = await server.get(`/v2.4/${path}`, { access_token: token });
      assert.deepEqual(reply.body[key], alone.body, key);
    }
    const named = await server.get('/', { access_token: token, ids: `${bob},me`, fields: 'name' });
    assert.deepEqual(named.body, { [bob]: { name: 'Bob Brook', id: bob }, me: { name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) } });
  });

  it('fails the whole request for one bad id, with the error that id gets alone', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    for (const bad of ['999999999', 'no_such_alias', fixture.postId(fixture.posts.secret, fixture.users.bob)]) {
      const reply = await server.get('/v2.4/', { access_token: token, ids: `me,${post},${bad}` });
      const alone = await server.get(`/v2.4/${bad}`, { access_token: token });
      assert.equal(reply.status, alone.status, bad);
      assert.equal(reply.body.error.message, alone.body.error.message, bad);
    }
  });

  it('refuses an empty identifier and more than 50 ids with code 100', async () => {
    for (const ids of ['', 'me,', ',me', 'me,,me']) {
      const reply = await server.get('/v2.4/', { access_token: token, ids });
      assert.equal(reply.status, 400, ids);
      assert.equal(reply.body.error.message, '(#100) Cannot specify an empty identifier', ids);
    }
    const many = Array.from({ length: 51 }, () => 'me').join(',');
    const tooMany = await server.get('/v2.4/', { access_token: token, ids: many });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.code, 100);
    const fifty = await server.get('/v2.4/', { access_token: token, ids: many.slice(3), fields: 'id' });
    assert.equal(fifty.status, 200, fifty.text);
  });

  it('answers an edge per id on /<edge>?ids= and through fields=<edge>.limit(n), each with its own paging', async () => {
    const friends = fixture.appFriends.slice(0, 2).map((id) => fixture.scoped(id));
    const edge = await server.get('/v2.4/posts', { access_token: token, ids: friends.join(','), limit: '2', fields: 'message' });
    assert.equal(edge.status, 200, edge.text);
    assert.deepEqual(Object.keys(edge.body), friends);
    for (const friend of friends) {
      const alone = await server.get(`/v2.4/${friend}/posts`, { access_token: token, limit: '2', fields: 'message' });
      assert.deepEqual(edge.body[friend].data, alone.body.data);
      assert.equal(edge.body[friend].data.length, 2);
      assert.ok(edge.body[friend].paging.next.includes(`/${friend}/posts`), edge.body[friend].paging.next);
    }
    const nested = await server.get('/v2.4/', { access_token: token, ids: friends.join(','), fields: 'posts.limit(2){message}' });
    assert.equal(nested.status, 200, nested.text);
    for (const friend of friends) {
      assert.equal(nested.body[friend].id, friend);
      assert.deepEqual(nested.body[friend].posts.data, edge.body[friend].data);
      assert.ok(nested.body[friend].posts.paging.next, 'a nested collection pages too');
    }
  });
});
