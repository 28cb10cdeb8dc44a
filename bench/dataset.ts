/**
 * The benchmark's data: a seeded demo graph in a SQLite file, two posts of the demo user liked by
 * many people and by 100, a long-lived token with every permission, and the same people and posts
 * as a json-server file (one collection per type). A copy of the graph can go to PostgreSQL.
 * Lists of values for requests that ask something different each time, one value a line: the id
 * of every person who uses the app, and tokens of those who let it read their friends and posts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scopedIdsFor } from '../src/auth/viewer.js';
import { issueUserToken, newUserToken } from '../src/auth/tokens.js';
import { graphSchema } from '../src/graph/graph-schema.js';
import { seedGraph } from '../src/seed/demo-graph.js';
import { Random } from '../src/seed/random.js';
import { RECORD_KINDS, recordKey, type StoreRecord } from '../src/store/records.js';
import { postgresStore } from '../src/store/postgres/postgres-store.js';
import type { Store } from '../src/store/store.js';
import type { ObjectId } from '../src/ids.js';
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
  /** App-scoped ids of every person who uses the app, the likers too, in random order. */
  peopleFile: string;
  /** `<token>&n=<counter>`: tokens that read their person's friends and posts, of another app user than the one before each time. */
  readerTokensFile: string;
  /** json-server's ids of its people, in random order. */
  jsonServerPeopleFile: string;
}

const SEED = 'bench';
const FEW_LIKES = 100;
const LOAD_CHUNK = 20_000;
/** Enough for a full run at several times today's rates without a URL asked twice. */
const READER_REQUESTS = 200_000;
/** What the Graph schema grants with every authorisation. */
const ALWAYS_GRANTED = graphSchema().permissions.alwaysGranted;
const READER_SCOPES = [ALWAYS_GRANTED, 'user_friends', 'user_posts'];

/** Seeds the graph; with `postgresUrl` (an empty database) all of it is copied there. */
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
    const { accessToken } = await issueUserToken(store, { appId, userId: demoUserId, scopes: graphSchema().allScopes(), expiresIn: 0, now });
    const writerToken = await newWriter(store, appId, now);
    const app = (await store.getApps([appId])).get(appId)!;
    const ids = scopedIdsFor(app);
    const postId = (id: ObjectId) => `${ids.scope(demoUserId)}_${id}`;
    const [manyId, fewId] = await createPosts(store, demoUserId, now);
    log(`adding ${manyLikes.toLocaleString('en')} likes to one post and ${FEW_LIKES} to another…`);
    await addLikers(store, appId, manyId, manyLikes, now);
    await addLikers(store, appId, fewId, FEW_LIKES, now);
    const random = new Random(SEED).fork('rotations');
    const readerTokensFile = join(dir, 'reader-tokens.txt');
    writeLines(readerTokensFile, await readerTokens(store, appId, random, now));
    const peopleFile = join(dir, 'people.txt');
    // A user token sees only the people who use its app (as on the real service).
    writeLines(peopleFile, random.shuffle((await grantedTo(store, appId, ALWAYS_GRANTED)).map((id) => ids.scope(id))));
    if (options.postgresUrl) {
      log('copying the graph to PostgreSQL…');
      const postgres = postgresStore(options.postgresUrl);
      try {
        await copyGraph(store, postgres);
      } finally {
        await postgres.close();
      }
    }
    const jsonServerFile = join(dir, 'json-server.json');
    const jsonServerPeople = await writeJsonServerFile(store, jsonServerFile);
    const jsonServerPeopleFile = join(dir, 'json-server-people.txt');
    writeLines(jsonServerPeopleFile, random.shuffle(jsonServerPeople));
    return {
      sqlitePath,
      jsonServerFile,
      accessToken,
      writerToken,
      manyLikesPost: postId(manyId),
      fewLikesPost: postId(fewId),
      jsonServerPerson: demoUserId,
      peopleFile,
      readerTokensFile,
      jsonServerPeopleFile,
    };
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

async function createPosts(store: Store, owner: ObjectId, now: number): Promise<[many: ObjectId, few: ObjectId]> {
  const post = (message: string) => ({
    op: 'createObject' as const,
    object: { type: 'post', owner, createdTime: now, data: { message, privacy: { value: 'EVERYONE' }, type: 'status' } },
  });
  const { results } = await store.write([post('Liked by very many'), post('Liked by a hundred')]);
  for (const [ref, assoc] of [[0, 'feed'], [1, 'feed'], [0, 'posts'], [1, 'posts']] as const) {
    await store.write([{ op: 'addAssoc', type: assoc, id1: owner, id2: results[ref] as ObjectId, time: now }]);
  }
  return results as [ObjectId, ObjectId];
}

/**
 * New people who each like the post (with the inverse `liked`), written as import records in
 * large transactions: the benchmark needs a list of a million edges in seconds, not hours. They
 * use the app, or a user token would see none of them and every page of likes would be empty.
 */
async function addLikers(store: Store, appId: ObjectId, postId: ObjectId, count: number, now: number): Promise<void> {
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
      records.push({ record: 'grant', appId, userId: id, scope: ALWAYS_GRANTED, status: 'granted' });
    }
    records.push({ record: 'idSequence', last: first + end - 1 });
    await store.loadRecords(records);
  }
  await store.loadRecords([{ record: 'count', id1: postId, type: 'likes', count }]);
}

function writeLines(path: string, values: ReadonlyArray<string | number>): void {
  writeFileSync(path, `${values.join('\n')}\n`);
}

/** The people who granted the app `scope`. */
async function grantedTo(store: Store, appId: ObjectId, scope: string): Promise<ObjectId[]> {
  const people: ObjectId[] = [];
  let after: ReadonlyArray<number | string> | undefined;
  for (;;) {
    const batch = await store.scanRecords('grant', after, LOAD_CHUNK);
    if (batch.length === 0) break;
    for (const record of batch) {
      if (record.record === 'grant' && record.appId === appId && record.scope === scope && record.status === 'granted') people.push(record.userId);
    }
    after = recordKey(batch[batch.length - 1]!);
  }
  return people;
}

/**
 * Values for requests by a different person each time that never ask a URL twice: a token of
 * each person who granted the app `user_friends` and `user_posts` (saved in the store), taken in
 * turns in random order, each with a counter parameter the server ignores.
 */
async function readerTokens(store: Store, appId: ObjectId, random: Random, now: number): Promise<string[]> {
  const posts = new Set(await grantedTo(store, appId, 'user_posts'));
  const people = random.shuffle((await grantedTo(store, appId, 'user_friends')).filter((id) => posts.has(id)));
  const issued = people.map((userId) => newUserToken({ appId, userId, scopes: READER_SCOPES, expiresIn: 0, now }));
  await store.saveTokens(issued.map((token) => token.record));
  return Array.from({ length: READER_REQUESTS }, (_, index) => `${issued[index % issued.length]!.accessToken}&n=${index}`);
}

/** json-server serves a JSON file of collections; ids are the store's own. Returns the people's ids. */
async function writeJsonServerFile(store: Store, path: string): Promise<number[]> {
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
  return people.map((person) => (person as { id: number }).id);
}

/**
 * Copies every record of the SQLite graph into an empty PostgreSQL store, as `loom import` loads
 * one: in bulk, so the copy ends with the planner's statistics of its tables. Without them a page
 * of friends who use the app was planned as a walk over all of the app's grants, and measured at
 * a twenty-fourth of its real rate (72 requests/s against 1,754).
 */
async function copyGraph(from: Store, to: Store): Promise<void> {
  await to.bulkLoad(async (load) => {
    for (const kind of RECORD_KINDS) {
      let after: ReadonlyArray<number | string> | undefined;
      for (;;) {
        const batch = await from.scanRecords(kind, after, LOAD_CHUNK);
        if (batch.length === 0) break;
        await load(batch);
        if (kind === 'idSequence') break;
        after = recordKey(batch[batch.length - 1]!);
      }
    }
  });
}
