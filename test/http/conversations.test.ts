import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

const SUCCESS = '{"success":true}';

describe('comments, replies and updates over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const clock = Clock.frozenAt(0);
  const served = useFixtureServer({ clock });
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
    clock.freeze(fixture.now);
  });

  const post = (path: string, fields: Record<string, string>) =>
    server.fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: token, ...fields }).toString(),
    });
  const assertGone = async (id: string | undefined) => {
    const reply = await server.get(`/v2.4/${id}`, { access_token: token });
    assert.equal(reply.status, 400, `${id} is gone`);
    assert.match(reply.body.error.message, /does not exist/);
  };
  const messages = (list: { data: Array<{ message: string }> }) => list.data.map((item) => item.message);

  async function conversation(): Promise<{ postId: string; comments: string[]; reply: string }> {
    const postId = (await post('/v2.4/me/feed', { message: 'Who is coming?' })).body.id as string;
    const comments: string[] = [];
    for (const message of ['first', 'second', 'third']) {
      clock.advance(10);
      comments.push((await post(`/v2.4/${postId}/comments`, { message })).body.id);
    }
    clock.advance(10);
    const reply = (await post(`/v2.4/${comments[0]}/comments`, { message: 'reply to first' })).body.id as string;
    return { postId, comments, reply };
  }

  it('lists comments oldest first by default, newest first on request, and names the order in the summary', async () => {
    const { postId } = await conversation();
    const plain = await server.get(`/v2.4/${postId}/comments`, { access_token: token, summary: 'true' });
    assert.deepEqual(messages(plain.body), ['first', 'second', 'third']);
    assert.deepEqual(plain.body.summary, { order: 'chronological', total_count: 3, can_comment: true });

    const reversed = await server.get(`/v2.4/${postId}/comments`, { access_token: token, order: 'reverse_chronological', summary: '1' });
    assert.deepEqual(messages(reversed.body), ['third', 'second', 'first']);
    assert.equal(reversed.body.summary.order, 'reverse_chronological');

    const nested = await server.get(`/v2.4/${postId}`, { access_token: token, fields: 'comments.order(reverse_chronological).limit(2){message}' });
    assert.deepEqual(messages(nested.body.comments), ['third', 'second']);
    const next = await server.fetch(nested.body.comments.paging.next);
    assert.deepEqual(messages(next.body), ['first'], 'the next link keeps the order');
  });

  it('pages chronologically with after and before cursors', async () => {
    const { postId } = await conversation();
    const first = await server.get(`/v2.4/${postId}/comments`, { access_token: token, limit: '2' });
    assert.deepEqual(messages(first.body), ['first', 'second']);
    const second = await server.fetch(first.body.paging.next);
    assert.deepEqual(messages(second.body), ['third']);
    const back = await server.fetch(second.body.paging.previous);
    assert.deepEqual(messages(back.body), ['first', 'second']);
  });

  it('keeps replies under their comment, and lists the whole conversation with filter(stream)', async () => {
    const { postId, comments } = await conversation();
    const topLevel = await server.get(`/v2.4/${postId}/comments`, { access_token: token, filter: 'toplevel' });
    assert.deepEqual(messages(topLevel.body), ['first', 'second', 'third']);
    const replies = await server.get(`/v2.4/${comments[0]}/comments`, { access_token: token });
    assert.deepEqual(messages(replies.body), ['reply to first']);
    const stream = await server.get(`/v2.4/${postId}`, { access_token: token, fields: 'comments.filter(stream).summary(true){message}' });
    assert.deepEqual(messages(stream.body.comments), ['first', 'second', 'third', 'reply to first']);
    assert.equal(stream.body.comments.summary.total_count, 4);
    const counted = await server.get(`/v2.4/${comments[0]}`, { access_token: token, fields: 'comment_count,message' });
    assert.deepEqual(counted.body, { comment_count: 1, message: 'first', id: comments[0] });
  });

  it('attaches a reply to a reply to the top-level comment, so the stream lists it and deleting the post removes it', async () => {
    const { postId, comments, reply } = await conversation();
    clock.advance(10);
    const nested = await post(`/v2.4/${reply}/comments`, { message: 'reply to reply', fields: 'message,object{message}' });
    assert.equal(nested.status, 200, nested.text);
    assert.equal(nested.body.object.message, 'first', 'its parent is the top-level comment');
    const replies = await server.get(`/v2.4/${comments[0]}/comments`, { access_token: token, summary: 'true' });
    assert.deepEqual(messages(replies.body), ['reply to first', 'reply to reply']);
    assert.equal(replies.body.summary.total_count, 2);
    assert.equal((await server.get(`/v2.4/${reply}/comments`, { access_token: token })).text, '{"data":[]}');
    const stream = await server.get(`/v2.4/${postId}/comments`, { access_token: token, filter: 'stream', summary: 'true' });
    assert.deepEqual(messages(stream.body), ['first', 'second', 'third', 'reply to first', 'reply to reply']);
    assert.equal(stream.body.summary.total_count, 5);

    const deleted = await server.fetch(`${server.url}/v2.4/${postId}?access_token=${token}`, { method: 'DELETE' });
    assert.equal(deleted.text, SUCCESS);
    for (const gone of [...comments, reply, nested.body.id]) await assertGone(gone);
  });

  it('likes comments like posts, and tells the author they may remove their comment', async () => {
    const { comments } = await conversation();
    assert.equal((await post(`/v2.4/${comments[1]}/likes`, {})).text, SUCCESS);
    const read = await server.get(`/v2.4/${comments[1]}`, {
      access_token: token,
      fields: 'like_count,can_remove,likes.summary(true){name}',
    });
    assert.equal(read.body.like_count, 1);
    assert.equal(read.body.can_remove, true);
    assert.deepEqual(read.body.likes.data, [{ name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) }]);
    assert.equal(read.body.likes.summary.has_liked, true);
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const byBob = await server.get(`/v2.4/${comments[1]}`, { access_token: bob, fields: 'can_remove' });
    assert.equal(byBob.body.can_remove, false);
  });

  it('refuses unknown order and filter values with code 100', async () => {
    const { postId } = await conversation();
    for (const params of [{ order: 'sideways' }, { filter: 'everything' }] as Record<string, string>[]) {
      const reply = await server.get(`/v2.4/${postId}/comments`, { access_token: token, ...params });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 100);
      assert.match(reply.body.error.message, /must be one of/);
    }
  });

  it('deletes a post with its comments and their replies, and a comment with its replies', async () => {
    const { postId, comments, reply } = await conversation();
    const deleteComment = await server.fetch(`${server.url}/v2.4/${comments[0]}?access_token=${token}`, { method: 'DELETE' });
    assert.equal(deleteComment.text, SUCCESS);
    for (const gone of [comments[0], reply]) await assertGone(gone);
    const left = await server.get(`/v2.4/${postId}/comments`, { access_token: token, filter: 'stream', summary: 'true' });
    assert.deepEqual(messages(left.body), ['second', 'third']);
    assert.equal(left.body.summary.total_count, 2);

    const again = await conversation();
    const deletePost = await server.fetch(`${server.url}/v2.4/${again.postId}?access_token=${token}`, { method: 'DELETE' });
    assert.equal(deletePost.text, SUCCESS);
    for (const gone of [...again.comments, again.reply]) await assertGone(gone);
  });

  it('updates a post, a comment and an album, moving updated_time', async () => {
    const { postId, comments } = await conversation();
    clock.advance(100);
    const edited = await post(`/v2.4/${postId}`, { message: 'Who is coming on Sunday?' });
    assert.equal(edited.status, 200);
    assert.equal(edited.text, SUCCESS);
    const read = await server.get(`/v2.4/${postId}`, { access_token: token, fields: 'message,created_time,updated_time' });
    assert.equal(read.body.message, 'Who is coming on Sunday?');
    assert.notEqual(read.body.updated_time, read.body.created_time);
    assert.equal(read.body.updated_time, new Date(clock.now() * 1000).toISOString().replace(/\.\d{3}Z$/, '+0000'));

    assert.equal((await post(`/v2.4/${comments[1]}`, { message: 'second, edited' })).text, SUCCESS);
    assert.equal((await server.get(`/v2.4/${comments[1]}`, { access_token: token, fields: 'message' })).body.message, 'second, edited');

    const album = String(fixture.album);
    assert.equal((await post(`/v2.4/${album}`, { name: 'Harbour days' })).text, SUCCESS);
    assert.equal((await server.get(`/v2.4/${album}`, { access_token: token, fields: 'name' })).body.name, 'Harbour days');
  });

  it('refuses updates by others, of nothing, of too much, and of nodes without writable fields', async () => {
    const { postId } = await conversation();
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'publish_actions']);
    const byBob = await post(`/v2.4/${postId}`, { access_token: bob, message: 'mine now' });
    assert.equal(byBob.status, 403);
    assert.equal(byBob.body.error.code, 200);

    const nothing = await post(`/v2.4/${postId}`, { privacy: '{"value":"SELF"}' });
    assert.equal(nothing.status, 400);
    assert.match(nothing.body.error.message, /Nothing to update: give message/);

    const huge = await post(`/v2.4/${postId}`, { message: 'x'.repeat(63_207) });
    assert.equal(huge.status, 400);
    assert.equal(huge.body.error.code, 100);

    const user = await post(`/v2.4/me`, { name: 'Someone else' });
    assert.equal(user.status, 400);
    assert.equal(user.body.error.code, 100);
    assert.equal((await server.get('/v2.4/me', { access_token: token, fields: 'name' })).body.name, 'Alice Arden');
  });

  it('answers a POST that carries fields with the created or updated node', async () => {
    const created = await post('/v2.4/me/feed', { message: 'Read me back', fields: 'id,message,from{name}' });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body), ['id', 'message', 'from']);
    assert.equal(created.body.message, 'Read me back');
    assert.equal(created.body.from.name, 'Alice Arden');

    const comment = await post(`/v2.4/${created.body.id}/comments`, { message: 'and me', fields: 'message,like_count' });
    assert.deepEqual(Object.keys(comment.body), ['message', 'like_count', 'id']);
    assert.equal(comment.body.like_count, 0);

    const updated = await post(`/v2.4/${created.body.id}`, { message: 'Read me back, edited', fields: 'message' });
    assert.deepEqual(updated.body, { message: 'Read me back, edited', id: created.body.id });
  });
});
