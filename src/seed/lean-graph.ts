/**
 * The lean graph: many people at a density a laptop can hold (a million people in a few GB),
 * written as import records in large transactions with the indexes built once at the end. Each
 * person has a name, about `friends` friends, `posts` public posts, and each post `likes` likes
 * from the author's friends; the demo user and app are as in the demo graph. Deterministic: the
 * same seed, size, profile and `now` on an empty store give the same graph, app-scoped ids and
 * password salt included (only the app's secret is random).
 *
 * Friendships follow a fixed set of random offsets (person i is friends with i ± each offset,
 * modulo the number of people), so both sides of every friendship, and who likes what, are
 * computed from a person's number alone, in id order, with nothing held in memory per person.
 */
import { registerApp } from '../auth/apps.js';
import { hashPassword, SALT_BYTES } from '../auth/passwords.js';
import type { StoreRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { OnSearchReindex } from '../store/search.js';
import type { ObjectId } from '../ids.js';
import { APP_USER_BASE_SCOPES, DEMO_SCOPES } from './demo-scopes.js';
import { DEMO_APP_NAME, DEMO_PASSWORD, type SeedResult } from './demo-graph.js';
import { FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES } from './names.js';
import { POST_CLOSERS, POST_MIDDLES, POST_OPENERS } from './phrases.js';
import { privacyOf } from './privacy.js';
import { Random } from './random.js';
import { indexSeededGraph } from './search-index.js';
import { DAY, YEAR } from './durations.js';

export interface LeanProfile {
  /** Friends per person (even; fewer when there are not enough people). */
  friends: number;
  posts: number;
  /** Likes per post, from the author's friends. */
  likes: number;
}

export const LEAN_PROFILE: LeanProfile = { friends: 20, posts: 3, likes: 2 };

export interface LeanSeedOptions {
  users: number;
  seed: string | number;
  /** Unix seconds: the graph's activity lies before it. */
  now: number;
  profile?: Partial<LeanProfile>;
  onProgress?: (done: number, total: number) => void;
  /** Told before the seeded graph is indexed for search, once it is written. */
  onSearchReindex?: OnSearchReindex;
}

/** Records per load call, each its own transaction. */
const CHUNK = 100_000;
const PRIVACY = privacyOf('EVERYONE');

/** A 32-bit mix of an integer, the same wherever it is computed (for choices both sides of an edge must agree on). */
function mix(value: number): number {
  let hash = Math.imul(value ^ (value >>> 16), 0x7feb352d);
  hash = Math.imul(hash ^ (hash >>> 15), 0x846ca68b);
  return (hash ^ (hash >>> 16)) >>> 0;
}

export async function seedLeanGraph(store: Store, options: LeanSeedOptions): Promise<SeedResult> {
  const { users, now } = options;
  if (!Number.isInteger(users) || users < 1) throw new RangeError(`users must be a positive integer, not ${users}`);
  if (!Number.isInteger(now) || now <= 0) throw new RangeError(`now must be unix seconds, not ${now}`);
  const { friends, posts, likes: likesWanted } = { ...LEAN_PROFILE, ...options.profile };
  const profile: LeanProfile = { friends, posts, likes: likesWanted };
  for (const [name, value] of Object.entries(profile)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number, not ${value}`);
  }
  const random = new Random(options.seed);
  const app = await registerApp(store, { name: DEMO_APP_NAME, now, idKey: random.fork('app-id-key').bytes(16).toString('hex') });
  const [sequence] = await store.scanRecords('idSequence', undefined, 1);
  const first = (sequence?.record === 'idSequence' ? sequence.last : 0) + 1;

  const offsets = friendOffsets(random.fork('friends'), users, profile.friends);
  const friendCount = offsets.length * 2;
  const likesPerPost = Math.min(profile.likes, friendCount);
  const postsPerPerson = profile.posts;
  const userId = (person: number): ObjectId => first + person;
  const postId = (person: number, index: number): ObjectId => first + users + person * postsPerPerson + index;
  const postTime = (post: ObjectId) => now - 2 * DAY - (mix(post) % (180 * DAY));
  const firstLiker = (post: ObjectId) => mix(post ^ 0x5bd1e995) % Math.max(1, friendCount);
  /** The person's friends, in the order likers are drawn from: i + offset j at 2j, i - offset j at 2j + 1. */
  const friendsOf = (person: number): number[] =>
    offsets.flatMap((offset) => [(person + offset) % users, (person - offset + users) % users]);

  const total = users + users * postsPerPerson;
  let done = 0;
  let likes = 0;
  const demoEmail = 'ilse.marwood@example.com';

  await store.bulkLoad(async (load) => {
    const chunk = new RecordChunk(load);
    const names = random.fork('names');
    for (let person = 0; person < users; person++) {
      const id = userId(person);
      const joined = now - YEAR - (mix(id) % (5 * YEAR));
      chunk.objects.push({ record: 'object', id, type: 'user', owner: null, createdTime: joined, updatedTime: joined, data: personData(names, person, demoEmail) });
      const friends = friendsOf(person);
      const posts = Array.from({ length: postsPerPerson }, (_, index) => postId(person, index));
      const liked: ObjectId[] = [];
      friends.forEach((friend, slot) => {
        // This person's place in the friend's list: i + offset j appears there at 2j + 1, and i - offset j at 2j.
        const place = slot % 2 === 0 ? slot + 1 : slot - 1;
        for (let index = 0; index < postsPerPerson; index++) {
          const post = postId(friend, index);
          if ((place - firstLiker(post) + friendCount) % friendCount < likesPerPost) liked.push(post);
        }
      });
      const assoc = (type: string, id2: ObjectId, time: number): StoreRecord => ({ record: 'association', id1: id, type, id2, time, data: null });
      // Each list in key order (id1, type, id2), so the inserts append to the table's b-tree.
      for (const post of posts) chunk.associations.push(assoc('feed', post, postTime(post)));
      for (const friend of friends.map(userId).sort((a, b) => a - b)) {
        const pair = Math.min(id, friend) * 31 + Math.max(id, friend);
        chunk.associations.push(assoc('friends', friend, now - DAY - (mix(pair) % YEAR)));
      }
      for (const post of liked.sort((a, b) => a - b)) chunk.associations.push(assoc('liked', post, postTime(post) + 60 + (mix(post ^ id) % DAY)));
      for (const post of posts) chunk.associations.push(assoc('posts', post, postTime(post)));
      const counts: Array<[string, number]> = [['feed', postsPerPerson], ['friends', friendCount], ['liked', liked.length], ['posts', postsPerPerson]];
      for (const [type, count] of counts) if (count > 0) chunk.counts.push({ record: 'count', id1: id, type, count });
      for (const scope of person === 0 ? DEMO_SCOPES : APP_USER_BASE_SCOPES) {
        chunk.grants.push({ record: 'grant', appId: app.id, userId: id, scope, status: 'granted' });
      }
      options.onProgress?.(++done, total);
      await chunk.flushWhenFull();
    }
    const messages = random.fork('messages');
    for (let person = 0; person < users; person++) {
      const friends = friendsOf(person);
      for (let index = 0; index < postsPerPerson; index++) {
        const id = postId(person, index);
        const time = postTime(id);
        const message = `${messages.pick(POST_OPENERS)} ${messages.pick(POST_MIDDLES)} ${messages.pick(POST_CLOSERS)}`;
        chunk.objects.push({ record: 'object', id, type: 'post', owner: userId(person), createdTime: time, updatedTime: time, data: { message, privacy: PRIVACY, type: 'status', status_type: 'mobile_status_update' } });
        const start = firstLiker(id);
        const likers = Array.from({ length: likesPerPost }, (_, n) => userId(friends[(start + n) % friendCount]!)).sort((a, b) => a - b);
        for (const liker of likers) chunk.associations.push({ record: 'association', id1: id, type: 'likes', id2: liker, time: time + 60 + (mix(id ^ liker) % DAY), data: null });
        if (likers.length > 0) chunk.counts.push({ record: 'count', id1: id, type: 'likes', count: likers.length });
        likes += likers.length;
        options.onProgress?.(++done, total);
        await chunk.flushWhenFull();
      }
    }
    await chunk.flush();
  });

  const demoUserId = userId(0);
  const salt = random.fork('password-salt').bytes(SALT_BYTES);
  await store.setCredentials({ userId: demoUserId, email: demoEmail, passwordHash: await hashPassword(DEMO_PASSWORD, salt) });
  await store.setSetting('demo.app_id', String(app.id));
  await indexSeededGraph(store, options.onSearchReindex);
  // Written last: the graph is complete once it is there.
  await store.setSetting('demo.user_id', String(demoUserId));
  return {
    appId: app.id,
    demoUserId,
    counts: { users, friendships: (users * friendCount) / 2, appUsers: users, posts: users * postsPerPerson, likes },
  };
}

/** Distinct offsets below half the number of people, so i + o and i - o never name the same person twice. */
function friendOffsets(random: Random, users: number, friends: number): number[] {
  const largest = Math.ceil(users / 2) - 1;
  const wanted = Math.min(Math.floor(friends / 2), Math.max(0, largest));
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(random.int(1, largest));
  return [...chosen];
}

function personData(random: Random, person: number, demoEmail: string): Record<string, unknown> {
  if (person === 0) return { name: 'Ilse Marwood', first_name: 'Ilse', last_name: 'Marwood', gender: 'female', email: demoEmail };
  const gender = random.chance(0.5) ? 'female' : 'male';
  const firstName = random.pick(gender === 'female' ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
  const lastName = random.pick(LAST_NAMES);
  return { name: `${firstName} ${lastName}`, first_name: firstName, last_name: lastName, gender };
}

/**
 * Records of a stretch of the graph, kept by kind and loaded kind after kind: objects before
 * the associations and counts that name them, and each kind in one run of statements.
 */
class RecordChunk {
  objects: StoreRecord[] = [];
  associations: StoreRecord[] = [];
  counts: StoreRecord[] = [];
  grants: StoreRecord[] = [];

  constructor(private readonly load: (records: readonly StoreRecord[]) => Promise<void>) {}

  async flushWhenFull(): Promise<void> {
    if (this.objects.length + this.associations.length + this.counts.length + this.grants.length >= CHUNK) await this.flush();
  }

  async flush(): Promise<void> {
    const records = [...this.objects, ...this.associations, ...this.counts, ...this.grants];
    [this.objects, this.associations, this.counts, this.grants] = [[], [], [], []];
    if (records.length > 0) await this.load(records);
  }
}

