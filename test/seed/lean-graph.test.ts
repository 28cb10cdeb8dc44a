import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import type { SeedResult } from '../../src/seed/demo-graph.js';
import { seedLeanGraph } from '../../src/seed/lean-graph.js';
import { RECORD_KINDS, type StoreRecord } from '../../src/store/records.js';
import type { Store } from '../../src/store/store.js';
import type { ObjectId } from '../../src/ids.js';
import { openScratchStore, selectRows, testStoreKind } from '../helpers/test-store.js';

const NOW = 1_700_000_000;
const USERS = 41;

/** Every record of the store but the app's (its secret and id key are random), in key order. */
async function records(store: Store): Promise<StoreRecord[]> {
  const all: StoreRecord[] = [];
  for (const kind of RECORD_KINDS.filter((kind) => kind !== 'app' && kind !== 'credentials' && kind !== 'idSequence')) {
    all.push(...(await store.scanRecords(kind, undefined, 1_000_000)));
  }
  return all;
}

const indexNames = (store: Store) =>
  selectRows<{ name: string }>(
    store,
    testStoreKind === 'sqlite'
      ? `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`
      : `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`,
  );

describe(`the lean graph (${testStoreKind})`, () => {
  let store: Store;
  let result: SeedResult;
  let indexesBefore: Array<{ name: string }>;
  const users: ObjectId[] = [];
  before(async () => {
    store = await openScratchStore();
    indexesBefore = await indexNames(store);
    result = await seedLeanGraph(store, { users: USERS, seed: 'lean-test', now: NOW, profile: { friends: 6, posts: 2, likes: 3 } });
    const all = await store.scanRecords('object', undefined, 1_000_000);
    for (const record of all) if (record.record === 'object' && record.type === 'user') users.push(record.id);
  });
  after(() => store.close());

  it('gives everyone the profile density, with friendships in both directions and exact counts', async () => {
    assert.equal(users.length, USERS);
    assert.deepEqual(result.counts, { users: USERS, friendships: (USERS * 6) / 2, appUsers: USERS, posts: USERS * 2, likes: USERS * 2 * 3 });
    const friends = await store.getPages({ type: 'friends', id1s: users, limit: 100 });
    const counts = await store.getCounts('friends', users);
    for (const user of users) {
      const list = friends.get(user)!;
      assert.equal(list.length, 6);
      assert.equal(counts.get(user), 6);
      assert.ok(!list.some((row) => row.id2 === user), 'nobody is their own friend');
      for (const row of list) {
        const back = (await store.getPages({ type: 'friends', id1s: [row.id2], limit: 100 })).get(row.id2)!;
        assert.deepEqual(back.filter((other) => other.id2 === user).map((other) => other.time), [row.time], 'the same friendship both ways');
      }
    }
  });

  it("likes come from the author's friends, each with its inverse, and counts match", async () => {
    const posts = (await store.getPages({ type: 'posts', id1s: users, limit: 100 }));
    const friendsOf = await store.getPages({ type: 'friends', id1s: users, limit: 100 });
    const likedBy = new Map<ObjectId, ObjectId[]>();
    for (const [author, list] of posts) {
      assert.equal(list.length, 2);
      const postIds = list.map((row) => row.id2);
      const likes = await store.getPages({ type: 'likes', id1s: postIds, limit: 100 });
      const likeCounts = await store.getCounts('likes', postIds);
      for (const post of postIds) {
        const likers = likes.get(post)!.map((row) => row.id2);
        assert.equal(likers.length, 3);
        assert.equal(likeCounts.get(post), 3);
        const authorsFriends = new Set(friendsOf.get(author)!.map((row) => row.id2));
        assert.ok(likers.every((liker) => authorsFriends.has(liker)), 'likers are friends of the author');
        for (const liker of likers) likedBy.set(liker, [...(likedBy.get(liker) ?? []), post]);
      }
    }
    const liked = await store.getPages({ type: 'liked', id1s: users, limit: 100 });
    const likedCounts = await store.getCounts('liked', users);
    for (const user of users) {
      const expected = (likedBy.get(user) ?? []).sort((a, b) => a - b);
      assert.deepEqual(liked.get(user)!.map((row) => row.id2).sort((a, b) => a - b), expected, 'liked is the inverse of likes');
      assert.equal(likedCounts.get(user), expected.length);
    }
  });

  it('records the demo app and user, who grants every permission; the others grant the base ones', async () => {
    const appId = Number(await store.getSetting('demo.app_id'));
    const demoUserId = Number(await store.getSetting('demo.user_id'));
    assert.equal(appId, result.appId);
    assert.equal(demoUserId, users[0]);
    const grants = await store.getGrants(appId, users);
    assert.deepEqual(grants.get(demoUserId)!.map((grant) => grant.scope).sort(), [...DEMO_SCOPES].sort());
    assert.deepEqual(grants.get(users[1]!)!.map((grant) => grant.scope).sort(), ['public_profile', 'user_friends']);
    assert.ok(await store.getCredentials(demoUserId), 'the demo user can sign in');
  });

  it('builds the indexes again after loading', async () => {
    assert.deepEqual(await indexNames(store), indexesBefore);
    assert.ok(indexesBefore.length >= 5, indexesBefore.map((index) => index.name).join(', '));
  });

  it('is the same graph for the same seed, size, profile and time', async () => {
    const again = await openScratchStore();
    try {
      await seedLeanGraph(again, { users: USERS, seed: 'lean-test', now: NOW, profile: { friends: 6, posts: 2, likes: 3 } });
      assert.deepEqual(await records(again), await records(store));
    } finally {
      await again.close();
    }
  });
});
