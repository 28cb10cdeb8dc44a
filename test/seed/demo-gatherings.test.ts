import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import { Clock } from '../../src/clock/clock.js';
import { inspectVideo } from '../../src/media/video-check.js';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import { seedGraph, type SeedResult } from '../../src/seed/demo-graph.js';
import { SECOND_PAGE_ITEMS } from '../../src/seed/seed-second-pages.js';
import type { Store } from '../../src/store/store.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

const NOW = 1_700_000_000;
const USERS = 60;

/** The demo graph as the demo user sees it through the API: her events, groups and videos. */
describe('events, groups and videos of the demo graph', () => {
  let store: Store;
  let result: SeedResult;
  let server: TestServer;
  let token: string;
  before(async () => {
    store = await openScratchStore();
    result = await seedGraph(store, { users: USERS, seed: 'demo', now: NOW });
    server = await startServer(store, { clock: Clock.frozenAt(NOW) });
    token = (await issueUserToken(store, { appId: result.appId, userId: result.demoUserId, scopes: [...DEMO_SCOPES], expiresIn: 3600, now: NOW })).accessToken;
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  const read = async (path: string, params: Record<string, string> = {}) => {
    const reply = await server.get(`/v2.4/${path}`, { access_token: token, ...params });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };

  it('gives the demo user events of every answer, with guests and walls', async () => {
    for (const type of ['attending', 'created', 'maybe', 'declined', 'not_replied']) {
      const events = await read('me/events', { type, fields: 'name,start_time,timezone,place,owner,attending_count' });
      assert.ok(events.data.length > 0, `events she ${type}`);
      for (const event of events.data) {
        assert.match(event.start_time, /^\d{4}-\d{2}-\d{2}T\d{2}:00:00[+-]\d{4}$/);
        const hour = Number(event.start_time.slice(11, 13));
        assert.ok(hour >= 10 && hour <= 21, `a local start at ${event.start_time}`);
        assert.ok(event.attending_count >= 1, 'the host attends');
      }
    }
    const created = await read('me/events', { type: 'created', fields: 'attending.limit(5){name},invited.limit(0).summary(true),feed{message,from}' });
    assert.ok(created.data.some((event: any) => event.invited.summary.total_count > 1), 'her events have guests');
    assert.ok(result.counts.events! >= 6);
  });

  it('gives the demo user groups she runs, with members and posts, and one she only belongs to', async () => {
    const groups = await read('me/groups', { limit: '100', fields: 'name,privacy,owner,members.limit(3).summary(true){name},feed.limit(3){message,from}' });
    assert.equal(groups.data.length, 2 + SECOND_PAGE_ITEMS, 'she runs two groups, and those written last');
    assert.equal(new Set(groups.data.map((group: any) => group.name)).size, groups.data.length, 'each of her groups has a name of its own');
    for (const group of groups.data) {
      assert.ok(group.members.summary.total_count >= 1);
      assert.equal(group.owner.id, (await read('me', { fields: 'id' })).id);
    }
    // Posts by people who never used the app are hidden from her: most groups still show some.
    assert.ok(groups.data.filter((group: any) => group.feed?.data.length > 0).length > groups.data.length / 2, 'her groups have posts');
    assert.ok(result.counts.groups! >= 3);
  });

  it('gives the demo user videos she uploaded and videos she is tagged in', async () => {
    const uploaded = await read('me/videos', { type: 'uploaded', limit: '100', fields: 'title,length,from,likes.summary(true).limit(0)' });
    assert.equal(uploaded.data.length, 3 + SECOND_PAGE_ITEMS);
    for (const video of uploaded.data) assert.ok(video.length > 0 && video.title);
    // Seeded without bytes, each has a placeholder clip for its file, recording its length.
    const files = await read('me/videos', { type: 'uploaded', fields: 'source,length' });
    for (const video of files.data) {
      const file = await fetch(video.source);
      assert.equal(file.headers.get('content-type'), 'video/mp4');
      assert.deepEqual(inspectVideo(Buffer.from(await file.arrayBuffer())), { contentType: 'video/mp4', length: video.length });
    }
    const tagged = await read('me/videos', { fields: 'title,from' });
    assert.ok(tagged.data.length > 0, 'friends tagged her');
    assert.ok(result.counts.videos! >= 3);
  });

  it('fills more than a page of her events, groups and uploaded videos at the default limit, in v2.0 as in v2.4', async () => {
    for (const version of ['v2.0', 'v2.4']) {
      for (const [path, params] of [['me/events', {}], ['me/groups', {}], ['me/videos', { type: 'uploaded' }]] as const) {
        const first = await server.get(`/${version}/${path}`, { access_token: token, ...params });
        assert.equal(first.status, 200, first.text);
        assert.equal(first.body.data.length, 25, `${version} ${path}: a full first page`);
        assert.ok(first.body.paging?.next, `${version} ${path}: a next page`);
        const second = await server.fetch(first.body.paging.next);
        assert.ok(second.body.data.length > 0, `${version} ${path}: the next page has items`);
        const ids = [...first.body.data, ...second.body.data].map((item: any) => item.id);
        assert.equal(new Set(ids).size, ids.length, `${version} ${path}: no item on both pages`);
      }
    }
  });

  it('seeds the same events, groups and videos from the same seed', async () => {
    const again = await openScratchStore();
    try {
      const second = await seedGraph(again, { users: USERS, seed: 'demo', now: NOW });
      assert.deepEqual(second.counts, result.counts);
      const lists = async (target: Store, id: number) => {
        const pages = await Promise.all(['events_created', 'events_attending', 'managed_groups', 'videos_uploaded', 'videos_tagged'].map((type) => target.getPages({ type, id1s: [id], limit: 100 })));
        const ids = pages.flatMap((page) => (page.get(id) ?? []).map((row) => row.id2));
        // In the lists' order: the store answers a map, in whatever order its rows came.
        const objects = await target.getObjects(ids);
        return { ids, objects: ids.map((id) => objects.get(id)) };
      };
      assert.deepEqual(await lists(again, second.demoUserId), await lists(store, result.demoUserId));
    } finally {
      await again.close();
    }
  });
});
