import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import { seedGraph, type SeedResult } from '../../src/seed/demo-graph.js';
import type { Store } from '../../src/store/store.js';
import type { Association, StoredObject } from '../../src/store/graph-store.js';
import type { Position } from '../../src/store/page-request.js';
import type { ObjectId } from '../../src/ids.js';
import { openScratchStore, selectRows, testStoreKind } from '../helpers/test-store.js';

const NOW = 1_700_000_000;
const DAY = 86400;
const USERS = 60;

/** Every association of `type` from `id1`, walked page by page with keyset positions. */
async function walk(store: Store, type: string, id1: ObjectId, pageSize = 100): Promise<Association[]> {
  const all: Association[] = [];
  let position: Position | undefined;
  for (;;) {
    const page = (await store.getPages({ type, id1s: [id1], limit: pageSize, after: position })).get(id1) ?? [];
    all.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || last === undefined) return all;
    position = { time: last.time, id2: last.id2 };
  }
}

async function allObjects(store: Store, total: number): Promise<StoredObject[]> {
  const ids = Array.from({ length: total + 20 }, (_, i) => i + 1);
  const objects = await store.getObjects(ids);
  return [...objects.values()].sort((a, b) => a.id - b.id);
}

function objectTotal(result: SeedResult): number {
  const c = result.counts;
  const sum = ['pages', 'users', 'likerUsers', 'posts', 'comments', 'albums', 'photos'].reduce((n, key) => n + (c[key] ?? 0), 0);
  return sum + 1; // the app
}

/** A dump of what the seeder wrote: objects, and the lists hanging off users, posts and albums. */
async function dump(store: Store, result: SeedResult): Promise<string> {
  const objects = await allObjects(store, objectTotal(result));
  const lists: Record<string, unknown> = {};
  const byType = (type: string): ObjectId[] => objects.filter((o) => o.type === type).map((o) => o.id);
  const edges: Array<[string, string[]]> = [
    ['user', ['friends', 'posts', 'feed', 'liked', 'liked_pages', 'albums', 'photos']],
    ['post', ['likes', 'comments']],
    ['album', ['album_photos']],
    ['photo', ['likes', 'comments']],
    ['page', ['fans']],
  ];
  for (const [objectType, assocTypes] of edges) {
    for (const assocType of assocTypes) {
      const pages = await store.getPages({ type: assocType, id1s: byType(objectType), limit: 10_000 });
      lists[`${objectType}.${assocType}`] = [...pages.entries()];
    }
  }
  return JSON.stringify({ objects, lists });
}

describe('seedGraph', () => {
  let store: Store;
  let result: SeedResult;
  const progress: Array<[number, number]> = [];

  before(async () => {
    store = await openScratchStore();
    result = await seedGraph(store, {
      users: USERS,
      seed: 'demo',
      now: NOW,
      onProgress: (done, total) => progress.push([done, total]),
    });
  });

  after(async () => {
    await store.close();
  });

  it('gives the same objects and associations for the same seed, and different ones for another seed', async () => {
    const again = await openScratchStore();
    const other = await openScratchStore();
    try {
      const secondResult = await seedGraph(again, { users: USERS, seed: 'demo', now: NOW });
      assert.deepEqual(secondResult.counts, result.counts);
      assert.equal(secondResult.demoUserId, result.demoUserId);
      const first = await dump(store, result);
      assert.equal(await dump(again, secondResult), first);

      const otherResult = await seedGraph(other, { users: USERS, seed: 'another seed', now: NOW });
      assert.notEqual(await dump(other, otherResult), first);
    } finally {
      await again.close();
      await other.close();
    }
  });

  it('leaves PostgreSQL statistics of the tables it filled, which its planner chooses plans by', { skip: testStoreKind !== 'postgres' }, async () => {
    const analysed = await selectRows<{ table: string }>(
      store,
      `SELECT DISTINCT tablename AS table FROM pg_stats WHERE schemaname = current_schema() AND tablename IN ('objects', 'associations', 'counts', 'grants') ORDER BY tablename`,
    );
    assert.deepEqual(analysed.map(({ table }) => table), ['associations', 'counts', 'grants', 'objects']);
  });

  it('records the demo app and user in settings, with every demo scope granted', async () => {
    assert.equal(await store.getSetting('demo.app_id'), String(result.appId));
    assert.equal(await store.getSetting('demo.user_id'), String(result.demoUserId));
    const app = (await store.getApps([result.appId])).get(result.appId);
    assert.equal(app?.name, 'Loom Demo');
    assert.match(app?.secret ?? '', /^[0-9a-f]{64}$/);
    assert.match(app?.idKey ?? '', /^[0-9a-f]{32}$/);
    const grants = (await store.getGrants(result.appId, [result.demoUserId])).get(result.demoUserId) ?? [];
    assert.deepEqual(
      grants.filter((g) => g.status === 'granted').map((g) => g.scope).sort(),
      [...DEMO_SCOPES].sort(),
    );
  });

  it('makes the demo user the first user, with a full profile', async () => {
    const objects = await allObjects(store, objectTotal(result));
    const firstUser = objects.find((o) => o.type === 'user');
    assert.equal(firstUser?.id, result.demoUserId);
    const data = firstUser?.data ?? {};
    for (const key of ['name', 'first_name', 'last_name', 'email', 'birthday', 'hometown', 'location', 'education', 'work', 'significant_other', 'cover']) {
      assert.ok(data[key] !== undefined, `demo user has ${key}`);
    }
    assert.match(String(data.birthday), /^\d{2}\/\d{2}\/\d{4}$/);
    const partner = (await store.getObjects([data.significant_other as number])).get(data.significant_other as number);
    assert.equal(partner?.type, 'user');
    assert.equal(partner?.data.significant_other, result.demoUserId);
    const hometown = (data.hometown as { id: string }).id;
    assert.equal((await store.getObjects([Number(hometown)])).get(Number(hometown))?.type, 'page');
    // Each school lists its classes, pages written last, as the v2.0 profile showed them.
    const education = data.education as Array<{ type: string; classes?: Array<{ id: string; name: string }> }>;
    assert.ok(education.length >= 2, 'a full education');
    for (const entry of education) {
      assert.ok(entry.classes !== undefined && entry.classes.length > 0, `classes at her ${entry.type}`);
      for (const { id, name } of entry.classes) {
        const page = (await store.getObjects([Number(id)])).get(Number(id));
        assert.deepEqual([page?.type, page?.data.name], ['page', name]);
      }
    }
  });

  it('gives the demo user at least 20 friends, some using the app and some not', async () => {
    const friends = await walk(store, 'friends', result.demoUserId);
    assert.ok(friends.length >= 20, `demo user has ${friends.length} friends`);
    const friendIds = friends.map((f) => f.id2);
    const granted = await store.getGrants(result.appId, friendIds);
    assert.ok(granted.size > 0, 'some friends use the app');
    assert.ok(granted.size < friendIds.length, 'some friends do not use the app');
    // Friendship goes both ways.
    const back = await store.getExisting('friends', friendIds.map((id) => [id, result.demoUserId] as const));
    assert.equal(back.size, friendIds.length);
  });

  it('gives every user of the social graph 5 to 40 friends', async () => {
    const objects = await allObjects(store, objectTotal(result));
    const socialUsers = objects.filter((o) => o.type === 'user').slice(0, USERS).map((o) => o.id);
    const counts = await store.getCounts('friends', socialUsers);
    for (const [user, count] of counts) assert.ok(count >= 5 && count <= 40, `user ${user} has ${count} friends`);
  });

  it('gives a demo-user post at least 300 likes, counted exactly, each with its inverse', async () => {
    const posts = await walk(store, 'posts', result.demoUserId);
    const counts = await store.getCounts('likes', posts.map((p) => p.id2));
    const [popular, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
    assert.ok(count >= 300, `the most liked demo post has ${count} likes`);
    assert.ok([...counts.values()].filter((n) => n >= 300).length >= 3, 'three demo posts have 300+ likes');
    const likes = await walk(store, 'likes', popular);
    assert.equal(likes.length, count);
    assert.equal(new Set(likes.map((l) => l.id2)).size, count);
    const inverse = await store.getExisting('liked', likes.map((l) => [l.id2, popular] as const));
    assert.equal(inverse.size, count);
    const post = (await store.getObjects([popular])).get(popular);
    for (const like of likes) assert.ok(like.time > (post?.createdTime ?? Infinity) && like.time <= NOW);
  });

  it('leaves some posts without likes and spreads posts over months', async () => {
    const objects = await allObjects(store, objectTotal(result));
    const posts = objects.filter((o) => o.type === 'post');
    const likeCounts = await store.getCounts('likes', posts.map((p) => p.id));
    assert.ok([...likeCounts.values()].some((n) => n === 0), 'some post has no likes');
    const times = posts.map((p) => p.createdTime);
    assert.ok(Math.max(...times) <= NOW);
    assert.ok(Math.max(...times) - Math.min(...times) >= 120 * DAY, 'posts span at least four months');
    assert.ok(posts.some((p) => Array.isArray(p.data.to)), 'some posts are on a friend\'s wall');
  });

  it('puts a wall post in the author\'s posts and the wall owner\'s feed', async () => {
    const objects = await allObjects(store, objectTotal(result));
    const wallPost = objects.find((o) => o.type === 'post' && Array.isArray(o.data.to));
    assert.ok(wallPost && wallPost.owner !== null);
    const wallOwner = (wallPost.data.to as number[])[0] as number;
    assert.equal((await store.getExisting('posts', [[wallPost.owner, wallPost.id]])).size, 1);
    assert.equal((await store.getExisting('feed', [[wallOwner, wallPost.id]])).size, 1);
    assert.equal((await store.getExisting('friends', [[wallOwner, wallPost.owner]])).size, 1);
  });

  it('fills albums with photos that point back at them, the first being the cover', async () => {
    const albums = await walk(store, 'albums', result.demoUserId);
    assert.ok(albums.length >= 1);
    for (const { id2: albumId } of albums) {
      const photos = await walk(store, 'album_photos', albumId);
      assert.ok(photos.length >= 3, `album ${albumId} has ${photos.length} photos`);
      const album = (await store.getObjects([albumId])).get(albumId);
      const photoObjects = await store.getObjects(photos.map((p) => p.id2));
      for (const photo of photoObjects.values()) assert.equal(photo.data.album, albumId);
      const firstPhoto = [...photoObjects.values()].sort((a, b) => a.id - b.id)[0];
      assert.equal(album?.data.cover_photo, firstPhoto?.id);
    }
  });

  it('links comments to their parent post or photo, which is also the thread they name', async () => {
    const objects = await allObjects(store, objectTotal(result));
    const comments = objects.filter((o) => o.type === 'comment');
    assert.ok(comments.length > 0);
    for (const comment of comments) {
      const parent = comment.data.parent as number;
      assert.equal(comment.data.thread, parent, `comment ${comment.id} names its thread`);
      assert.equal((await store.getExisting('comments', [[parent, comment.id]])).size, 1);
    }
  });

  it('adds extra likers to a small graph and reports progress up to the total', () => {
    assert.equal(result.counts.users, USERS);
    assert.ok((result.counts.likerUsers ?? 0) >= 400);
    assert.ok(progress.length > 1);
    const [lastDone, lastTotal] = progress[progress.length - 1] ?? [0, -1];
    assert.equal(lastDone, lastTotal);
    for (let i = 1; i < progress.length; i++) {
      assert.ok((progress[i]?.[0] ?? 0) >= (progress[i - 1]?.[0] ?? 0), 'progress never goes back');
      assert.equal(progress[i]?.[1], lastTotal, 'the total never changes');
    }
  });

  it('rejects a user count that is not a positive integer', async () => {
    await assert.rejects(seedGraph(store, { users: 0, seed: 1, now: NOW }), RangeError);
  });
});
