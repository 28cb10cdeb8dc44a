import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import { Clock } from '../../src/clock/clock.js';
import { seedGraph, type SeedResult } from '../../src/seed/demo-graph.js';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import type { Store } from '../../src/store/store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

const NOW = 1_700_000_000;

describe('the demo graph: pages that act, link posts, tags and shares', () => {
  let store: Store;
  let server: TestServer;
  let result: SeedResult;
  let token: string;
  before(async () => {
    store = await openScratchStore();
    result = await seedGraph(store, { users: 60, seed: 'pages', now: NOW });
    server = await startServer(store, { clock: Clock.frozenAt(NOW) });
    token = (await issueUserToken(store, { appId: result.appId, userId: result.demoUserId, scopes: DEMO_SCOPES, expiresIn: 3600, now: NOW })).accessToken;
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  it('gives the demo user pages to administer, each with posts its page token reads', async () => {
    assert.ok(DEMO_SCOPES.includes('manage_pages') && DEMO_SCOPES.includes('publish_pages'));
    const accounts = await server.get('/v2.4/me/accounts', { access_token: token });
    assert.equal(accounts.status, 200, accounts.text);
    assert.ok(accounts.body.data.length >= 1);
    const [account] = accounts.body.data;
    const feed = await server.get('/v2.4/me/feed', { access_token: account.access_token, limit: '100', fields: 'from,message,attachments,comments.limit(100){from}' });
    assert.ok(feed.body.data.length >= 4, feed.text);
    for (const post of feed.body.data) {
      assert.deepEqual(post.from, { name: account.name, id: account.id });
      assert.ok(post.id.startsWith(`${account.id}_`));
    }
    // The page also answers under its posts, as itself.
    const commenters = feed.body.data.flatMap((post: any) => post.comments?.data ?? []).map((comment: any) => comment.from.id);
    assert.ok(commenters.length > 0);
    const pages = await server.get('/v2.4/me/accounts', { access_token: token, fields: 'id' });
    const byPages = (await Promise.all(pages.body.data.map((item: any) => server.get(`/v2.4/${item.id}/feed`, { access_token: token, limit: '100', fields: 'comments.limit(100){from}' }))))
      .flatMap((reply) => reply.body.data.flatMap((post: any) => post.comments?.data ?? []))
      .filter((comment: any) => pages.body.data.some((item: any) => item.id === comment.from.id));
    assert.ok(byPages.length > 0, 'a page comments as itself');
    const page = await server.get(`/v2.4/${account.id}`, { access_token: token, fields: 'about,category_list,phone,location,likes,cover,albums{count,photos{id}}' });
    assert.ok(page.body.about && page.body.phone && page.body.location.city && page.body.likes > 0, page.text);
    assert.ok(page.body.albums.data[0].count >= 2);
    const cover = page.body.cover;
    assert.deepEqual(Object.keys(cover), ['cover_id', 'offset_x', 'offset_y', 'source', 'id']);
    assert.ok(page.body.albums.data[0].photos.data.some((photo: any) => photo.id === cover.id));
    assert.equal((await server.fetch(cover.source)).status, 200);
  });

  it('gives every page the demo user likes a cover: a photo of its own, in its Cover Photos album, shown by default in v2.0', async () => {
    const likes = await server.get('/v2.4/me/likes', { access_token: token, limit: '100', fields: 'id,cover,albums{name,type,photos{id}}' });
    assert.equal(likes.status, 200, likes.text);
    assert.ok(likes.body.data.length >= 5, likes.text);
    for (const page of likes.body.data) {
      assert.ok(page.cover, `page ${page.id} has a cover`);
      // A page people run has its own album's first photo as its cover; the others a Cover Photos album.
      const album = page.albums.data.find((item: any) => item.photos.data.some((photo: any) => photo.id === page.cover.id));
      assert.ok(album, `page ${page.id}: the cover is a photo of one of its albums`);
      const photo = await server.get(`/v2.4/${page.cover.id}`, { access_token: token, fields: 'from,width' });
      assert.equal(photo.body.from.id, page.id);
      if (album.type === 'cover') assert.deepEqual([album.name, album.photos.data.length, photo.body.width], ['Cover Photos', 1, 851]);
    }
    assert.ok(likes.body.data.filter((page: any) => page.albums.data.some((item: any) => item.type === 'cover')).length >= 5);
    const [first] = likes.body.data;
    const plain = await server.get(`/v2.0/${first.id}`, { access_token: token });
    assert.deepEqual(plain.body.cover, { cover_id: first.cover.id, offset_x: 0, offset_y: first.cover.offset_y, source: first.cover.source });
  });

  it('holds link posts by the demo user with previews, tags, the app and shares', async () => {
    const posts = await server.get('/v2.4/me/posts', {
      access_token: token,
      limit: '100',
      fields: 'name,caption,description,message_tags,with_tags,application,shares,attachments',
    });
    const tagged = posts.body.data.filter((post: any) => post.message_tags !== undefined);
    assert.equal(tagged.length, 3);
    for (const post of tagged) {
      assert.ok(post.name && post.caption && post.description);
      assert.equal(Object.values(post.message_tags).flat().length, 1);
      assert.ok(post.with_tags.data.length >= 1);
      assert.equal(post.application.name, 'Loom Demo');
      assert.equal(post.attachments.data[0].type, 'share');
    }
    assert.ok(tagged.some((post: any) => post.shares?.count >= 1));
    assert.ok(result.counts.sharedPosts! >= 3);
  });
});
