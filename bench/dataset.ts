/**
 * The benchmark's data: a seeded demo graph in a SQLite file, two posts of the demo user liked by
 * many people and by 100, a long-lived token with every permission, and the same people and posts
 * as a json-server file (one collection per type). A copy of the graph can go to PostgreSQL.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scopedIdsFor } from '../src/auth/viewer.js';
import { issueUserToken } from '../src/auth/tokens.js';
import { Schema } from '../src/schema/registry.js';
import { seedGraph } from '../src/seed/demo-graph.js';
import { RECORD_KINDS, recordKey, type StoreRecord } from '../src/store/records.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import type { ObjectId, Store } from '../src/store/store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

export interface Dataset {
  sqlitePath: string;
  jsonServerFile: string;
  accessToken: string;
  /** A token of someone else, whose posts the write case piles up, away from the demo user's lists. */
  writerToken: string;
  /** Graph ids of the two liked posts. */
  manyLikesPost: string;
  fewLikesPost: string;
  /** json-server's id of the demo user. */
  jsonServerPerson: number;
}

const SEED = 'bench';
const FEW_LIKES = 100;
const LOAD_CHUNK = 20_000;

/**
 * Seeds the graph; with `postgresUrl` (an empty database) the graph, token and posts are copied
 * there before the many likes are added, which only the SQLite cases read.
 */
export async function prepareDataset(
  dir: string,
  options: { users: number; manyLikes: number; postgresUrl?: string },
  log: (line: string) => void,
): Promise<Dataset> {
  const { users, manyLikes } = options;
  const sqlitePath = join(dir, 'bench.db');
  const store = openSqliteStore(sqlitePath);
  try {
    const now = Math.floor(Date.now() / 1000);
    log(`seeding ${users} people…`);
    const { appId, demoUserId } = await seedGraph(store, { users, seed: SEED, now });
    const { accessToken } = await issueUserToken(store, { appId, userId: demoUserId, scopes: Schema.default().allScopes(), expiresIn: 0, now });
    const writerToken = await newWriter(store, appId, now);
    const app = (await store.getApps([appId])).get(appId)!;
    const ids = scopedIdsFor(app);
    const postId = (id: ObjectId) => `${ids.scope(demoUserId)}_${id}`;
    const [manyId, fewId] = await createPosts(store, demoUserId, now);
    if (options.postgresUrl) {
      log('copying the graph to PostgreSQL…');
      const postgres = new PostgresStore(options.postgresUrl);
      try {
        await copyGraph(store, postgres);
      } finally {
        await postgres.close();
      }
    }
    log(`adding ${manyLikes.toLocaleString('en')} likes to one post and ${FEW_LIKES} to another…`);
    await addLikers(store, manyId, manyLikes, now);
    await addLikers(store, fewId, FEW_LIKES, now);
    const jsonServerFile = join(dir, 'json-server.json');
    await writeJsonServerFile(store, jsonServerFile);
    return { sqlitePath, jsonServerFile, accessToken, writerToken, manyLikesPost: postId(manyId), fewLikesPost: postId(fewId), jsonServerPerson: demoUserId };
  } finally {
    await store.close();
  }
}

async function newWriter(store: Store, appId: ObjectId, now: number): Promise<string> {
  const { results } = await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: now, data: { name: 'Bench Writer' } } }]);
  const userId = results[0] as ObjectId;
  const scopes = ['public_profile', 'publish_actions'];
  await store.setGrants(appId, [{ userId, grants: scopes.map((scope) => ({ scope, status: 'granted' as const })) }]);
  return (await issueUserToken(store, { appId, userId, scopes, expiresIn: 0, now })).accessToken;
}

async function createPosts(store: Store, owner: ObjectId, now: number): Promise<ObjectId[]> {
  const post = (message: string) => ({
    op: 'createObject' as const,
    object: { type: 'post', owner, createdTime: now, data: { message, privacy: { value: 'EVERYONE' }, type: 'status' } },
  });
  const { results } = await store.write([post('Liked by very many'), post('Liked by a hundred')]);
  for (const [ref, assoc] of [[0, 'feed'], [1, 'feed'], [0, 'posts'], [1, 'posts']] as const) {
    await store.write([{ op: 'addAssoc', type: assoc, id1: owner, id2: results[ref] as ObjectId, time: now }]);
  }
  return results as ObjectId[];
}

/**
 * New people who each like the post (with the inverse `liked`), written as import records in
 * large transactions: the benchmark needs a list of a million edges in seconds, not hours.
 */
async function addLikers(store: Store, postId: ObjectId, count: number, now: number): Promise<void> {
  const [sequence] = await store.scanRecords('idSequence', undefined, 1);
  const first = (sequence?.record === 'idSequence' ? sequence.last : 0) + 1;
  for (let start = 0; start < count; start += LOAD_CHUNK) {
    const records: StoreRecord[] = [];
    const end = Math.min(count, start + LOAD_CHUNK);
    for (let index = start; index < end; index++) {
      const id = first + index;
      const time = now - 1 - index;
      records.push({ record: 'object', id, type: 'user', owner: null, createdTime: time, updatedTime: time, data: { name: `Liker ${index + 1}` } });
      records.push({ record: 'association', id1: postId, type: 'likes', id2: id, time, data: null });
      records.push({ record: 'association', id1: id, type: 'liked', id2: postId, time, data: null });
      records.push({ record: 'count', id1: id, type: 'liked', count: 1 });
    }
    records.push({ record: 'idSequence', last: first + end - 1 });
    await store.loadRecords(records);
  }
  await store.loadRecords([{ record: 'count', id1: postId, type: 'likes', count }]);
}

/** json-server serves a JSON file of collections; ids are the store's own. */
async function writeJsonServerFile(store: Store, path: string): Promise<void> {
  const people: unknown[] = [];
  const posts: unknown[] = [];
  let after: ReadonlyArray<number | string> | undefined;
  for (;;) {
    const batch = await store.scanRecords('object', after, 5000);
    if (batch.length === 0) break;
    for (const record of batch) {
      if (record.record !== 'object') continue;
      const item = { id: record.id, ...record.data, created_time: new Date(record.createdTime * 1000).toISOString() };
      if (record.type === 'user' && !String(record.data.name).startsWith('Liker ')) people.push(item);
      if (record.type === 'post') posts.push({ ...item, from: record.owner });
      after = [record.id];
    }
  }
  writeFileSync(path, JSON.stringify({ people, posts }));
}

/** Copies every record of the SQLite graph into an empty PostgreSQL store. */
async function copyGraph(from: Store, to: Store): Promise<void> {
  for (const kind of RECORD_KINDS) {
    let after: ReadonlyArray<number | string> | undefined;
    for (;;) {
      const batch = await from.scanRecords(kind, after, LOAD_CHUNK);
      if (batch.length === 0) break;
      await to.loadRecords(batch);
      if (kind === 'idSequence') break;
      after = recordKey(batch[batch.length - 1]!);
    }
  }
}
