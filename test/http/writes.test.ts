import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

const SUCCESS = '{"success":true}';

describe('writes over HTTP', () => {
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

  const form = (path: string, fields: Record<string, string>, method = 'POST') =>
    server.fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('runs the lifecycle: post, read, like, unlike, delete', async () => {
    const postsBefore = (await server.get('/v2.4/me/posts', { access_token: token, limit: '0', summary: 'true' })).body.summary.total_count;

    const created = await form('/v2.4/me/feed', { access_token: token, message: 'Woven today' });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body), ['id']);
    const id: string = created.body.id;
    assert.match(id, new RegExp(`^${me}_\\d+$`));

    const read = await server.get(`/v2.4/${id}`, { access_token: token, fields: 'message,from,created_time,updated_time' });
    assert.deepEqual(read.body, {
      message: 'Woven today',
      from: { name: 'Alice Arden', id: me },
      created_time: '2025-10-09T08:53:20+0000',
      updated_time: '2025-10-09T08:53:20+0000',
      id,
    });
    assert.equal((await server.get('/v2.4/me/feed', { access_token: token })).body.data[0].id, id);
    assert.equal((await server.get('/v2.4/me/posts', { access_token: token })).body.data[0].id, id);

    const like = await form(`/v2.4/${id}/likes`, { access_token: token });
    assert.equal(like.status, 200);
    assert.equal(like.text, SUCCESS);
    assert.equal(Buffer.byteLength(like.text), 16);
    const likes = () => server.get(`/v2.4/${id}`, { access_token: token, fields: 'likes.summary(true)' });
    assert.deepEqual((await likes()).body.likes.summary, { total_count: 1, can_like: true, has_liked: true });
    assert.equal((await form(`/v2.4/${id}/likes`, { access_token: token })).text, SUCCESS);
    assert.equal((await likes()).body.likes.summary.total_count, 1, 'liking twice keeps one like');

    const unlike = await server.fetch(`${server.url}/v2.4/${id}/likes?access_token=${token}`, { method: 'DELETE' });
    assert.equal(unlike.text, SUCCESS);
    assert.deepEqual((await likes()).body.likes.summary, { total_count: 0, can_like: true, has_liked: false });

    const comment = await form(`/v2.4/${id}/comments`, { access_token: token, message: 'First!' });
    assert.match(comment.body.id, /^\d+$/);
    const deleted = await server.fetch(`${server.url}/v2.4/${id}?access_token=${token}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.text, SUCCESS);

    const gone = await server.get(`/v2.4/${id}`, { access_token: token });
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error.type, 'GraphMethodException');
    assert.equal((await server.get(`/v2.4/${comment.body.id}`, { access_token: token })).status, 400, 'its comments go with it');
    assert.notEqual((await server.get('/v2.4/me/feed', { access_token: token })).body.data[0].id, id);
    assert.notEqual((await server.get('/v2.4/me/posts', { access_token: token })).body.data[0].id, id);
    const postsAfter = (await server.get('/v2.4/me/posts', { access_token: token, limit: '0', summary: 'true' })).body.summary.total_count;
    assert.equal(postsAfter, postsBefore);
  });

  it('takes the message from the query string, a JSON body, and a path with a trailing slash', async () => {
    const query = await server.fetch(`${server.url}/v2.4/me/feed/?access_token=${token}&message=${encodeURIComponent('From the query')}`, { method: 'POST' });
    assert.match(query.body.id, /^\d+_\d+$/);
    const json = await server.fetch(`${server.url}/v2.4/me/feed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token, message: 'From JSON', privacy: { value: 'SELF' } }),
    });
    const read = await server.get(`/v2.4/${json.body.id}`, { access_token: token, fields: 'message,privacy' });
    assert.equal(read.body.message, 'From JSON');
    assert.equal(read.body.privacy.value, 'SELF');
    const override = await server.get('/v2.4/me/feed', { access_token: token, method: 'post', message: 'Via method=post' });
    assert.match(override.body.id, /^\d+_\d+$/);
  });

  it('lets method= override the verb on GET and POST alike, and suppress_http_code answer 200', async () => {
    const created = await server.get('/v2.4/me/feed', { access_token: token, method: 'post', message: 'Short-lived' });
    const id: string = created.body.id;
    const readByPost = await form(`/v2.4/${id}`, { access_token: token, method: 'get', fields: 'message' });
    assert.deepEqual(readByPost.body, { message: 'Short-lived', id });
    const liked = await form(`/v2.4/${id}/likes`, { access_token: token });
    assert.equal(liked.text, SUCCESS);
    const unliked = await server.get(`/v2.4/${id}/likes`, { access_token: token, method: 'delete' });
    assert.equal(unliked.text, SUCCESS);
    const likes = await server.get(`/v2.4/${id}/likes`, { access_token: token, summary: 'true' });
    assert.equal(likes.body.summary.total_count, 0);

    const deleted = await form(`/v2.4/${id}`, { access_token: token, method: 'delete' });
    assert.equal(deleted.text, SUCCESS);
    const suppressed = await server.get(`/v2.4/${id}`, { access_token: token, suppress_http_code: '1' });
    assert.equal(suppressed.status, 200);
    assert.equal(suppressed.body.error.code, 100);
    assert.equal((await server.get(`/v2.4/${id}`, { access_token: token })).status, 400);
  });

  it('posts on a friend\'s wall with from the author and to the wall owner', async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const created = await form(`/v2.4/${bob}/feed`, { access_token: token, message: 'Happy birthday' });
    const read = await server.get(`/v2.4/${created.body.id}`, { access_token: token, fields: 'from,to' });
    assert.equal(read.body.from.id, me);
    assert.deepEqual(read.body.to.data.map((user: { id: string }) => user.id), [bob]);
    const bobToken = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_posts', 'publish_actions']);
    const onBobsWall = await server.get(`/v2.4/${bob}/feed`, { access_token: bobToken });
    assert.equal(onBobsWall.body.data[0].id, created.body.id);
    const deleted = await server.fetch(`${server.url}/v2.4/${created.body.id}?access_token=${bobToken}`, { method: 'DELETE' });
    assert.equal(deleted.text, SUCCESS, 'the wall owner may delete it');
    const stranger = await form(`/v2.4/${fixture.scoped(fixture.users.dave)}/feed`, { access_token: token, message: 'Hi' });
    assert.equal(stranger.status, 403);
  });

  it('refuses a post without message or link, naming the parameter', async () => {
    const reply = await form('/v2.4/me/feed', { access_token: token });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.message, '(#100) The parameter message or link is required');
    const huge = await form('/v2.4/me/feed', { access_token: token, message: 'x'.repeat(70_000) });
    assert.equal(huge.body.error.code, 100);
  });

  it('refuses writes without publish_actions and deletes by others with (#200) and 403', async () => {
    const readOnly = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_posts']);
    const reply = await form('/v2.4/me/feed', { access_token: readOnly, message: 'nope' });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 200);
    assert.match(reply.body.error.message, /^\(#200\) /);
    const bobToken = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'publish_actions']);
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const foreign = await server.fetch(`${server.url}/v2.4/${popular}?access_token=${bobToken}`, { method: 'DELETE' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error.code, 200);
  });

  it('counts 200 concurrent likes by 200 people exactly', async () => {
    const created = await form('/v2.4/me/feed', { access_token: token, message: 'Like this', privacy: '{"value":"EVERYONE"}' });
    const id: string = created.body.id;
    const tokens = await Promise.all(fixture.likers.slice(0, 200).map((liker) => fixture.tokenFor(liker, ['public_profile', 'publish_actions'])));
    const replies = await Promise.all(tokens.map((likerToken) => form(`/v2.4/${id}/likes`, { access_token: likerToken })));
    assert.ok(replies.every((reply) => reply.text === SUCCESS));
    const summary = await server.get(`/v2.4/${id}/likes`, { access_token: token, summary: 'true', limit: '0' });
    assert.equal(summary.body.summary.total_count, 200);
    const seen: string[] = [];
    let page = await server.get(`/v2.4/${id}/likes`, { access_token: token, limit: '50' });
    for (;;) {
      seen.push(...page.body.data.map((like: { id: string }) => like.id));
      if (!page.body.paging?.next) break;
      page = await server.fetch(page.body.paging.next);
    }
    assert.equal(new Set(seen).size, 200);
  });
});
