/**
 * Paging the likes and comments of the demo graph's busiest posts, over HTTP: almost none of the
 * people who liked or commented on them ever used the demo app, and every one of them is reached,
 * as many as the summary counts, with no empty page on the way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_SEED, DEMO_USERS } from '../../src/config.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import { seedGraph } from '../../src/seed/demo-graph.js';
import type { Store } from '../../src/store/store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

interface Counted {
  id: string;
  likes: number;
  comments: number;
}

describe("paging the demo graph's busiest posts", () => {
  let store: Store;
  let server: TestServer;
  let token: string;
  let byLikes: Counted;
  let byComments: Counted;
  const now = Math.floor(Date.now() / 1000);

  before(async () => {
    store = await openScratchStore();
    // The graph `npm start` serves.
    const seeded = await seedGraph(store, { users: DEMO_USERS, seed: DEMO_SEED, now: now - 3600 });
    token = (await issueUserToken(store, { appId: seeded.appId, userId: seeded.demoUserId, scopes: DEMO_SCOPES, expiresIn: 3600, now })).accessToken;
    server = await startServer(store);
    // Every post of the demo user's feed (hers and those on her wall), with its counts.
    const posts: Counted[] = [];
    let next: string | undefined = `${server.url}/v2.4/me/feed?${new URLSearchParams({
      access_token: token,
      limit: '100',
      fields: 'likes.limit(0).summary(true),comments.limit(0).summary(true)',
    })}`;
    while (next !== undefined) {
      const reply = await server.fetch(next);
      assert.equal(reply.status, 200, reply.text);
      for (const post of reply.body.data) {
        posts.push({ id: post.id, likes: post.likes?.summary.total_count ?? 0, comments: post.comments?.summary.total_count ?? 0 });
      }
      next = reply.body.paging?.next;
    }
    byLikes = posts.reduce((best, post) => (post.likes > best.likes ? post : best));
    byComments = posts.reduce((best, post) => (post.comments > best.comments ? post : best));
  });

  after(async () => {
    await server?.close();
    await store?.close();
  });

  /** Follows `next` from the first page to the last; every page holds items. */
  async function pageThrough(first: string): Promise<{ ids: string[]; total: number }> {
    const ids: string[] = [];
    let total = -1;
    let next: string | undefined = first;
    while (next !== undefined) {
      const reply = await server.fetch(next);
      assert.equal(reply.status, 200, reply.text);
      if (reply.body.paging?.next !== undefined) assert.ok(reply.body.data.length > 0, `a page with a next link holds items: ${reply.text}`);
      ids.push(...reply.body.data.map((item: { id: string }) => item.id));
      total = reply.body.summary.total_count;
      next = reply.body.paging?.next;
    }
    return { ids, total };
  }

  const edgeUrl = (post: string, edge: string, limit: string) =>
    `${server.url}/v2.4/${post}/${edge}?${new URLSearchParams({ access_token: token, limit, summary: 'true' })}`;

  it('reaches every like of the most liked post, as many as it counts', async () => {
    assert.ok(byLikes.likes >= 300, `the busiest post has hundreds of likes: ${JSON.stringify(byLikes)}`);
    const { ids, total } = await pageThrough(edgeUrl(byLikes.id, 'likes', '5'));
    assert.equal(total, byLikes.likes);
    assert.equal(ids.length, total);
    assert.equal(new Set(ids).size, ids.length, 'no liker twice');
  });

  it('reaches every comment of the most commented post, as many as it counts', async () => {
    assert.ok(byComments.comments >= 5, `the busiest post has comments: ${JSON.stringify(byComments)}`);
    const { ids, total } = await pageThrough(edgeUrl(byComments.id, 'comments', '2'));
    assert.equal(total, byComments.comments);
    assert.equal(ids.length, total);
    assert.equal(new Set(ids).size, ids.length, 'no comment twice');
    // The most liked post's comments too.
    const liked = await pageThrough(edgeUrl(byLikes.id, 'comments', '2'));
    assert.equal(liked.ids.length, liked.total);
  });

  it('shows full first pages nested in the posts, and the people behind them', async () => {
    const liked = await server.get(`/v2.4/${byLikes.id}`, { access_token: token, fields: 'likes.limit(5){name}' });
    assert.equal(liked.status, 200, liked.text);
    assert.equal(liked.body.likes.data.length, 5, liked.text);
    for (const liker of liked.body.likes.data) assert.equal(typeof liker.name, 'string', liked.text);
    assert.ok(liked.body.likes.paging.next);
    const commented = await server.get(`/v2.4/${byComments.id}`, { access_token: token, fields: 'comments.limit(3){from{name},message}' });
    assert.equal(commented.status, 200, commented.text);
    assert.equal(commented.body.comments.data.length, 3, commented.text);
    for (const comment of commented.body.comments.data) assert.equal(typeof comment.from?.name, 'string', commented.text);
  });
});
