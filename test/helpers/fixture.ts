import { randomBytes } from 'node:crypto';
import { recordConsent } from '../../src/auth/grants.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import type { Store } from '../../src/store/store.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import { seededStore } from './templates.js';

/** A small graph whose every number is known, so tests can assert exact answers. */
export interface Fixture {
  store: Store;
  /** Where the store lives, as `--db` takes it: a SQLite file, or a postgres:// URL with its schema. */
  path: string;
  app: AppRecord;
  now: number;
  users: { alice: number; bob: number; carol: number; dave: number };
  /** Alice's friends who use the app (bob plus these), each with 5 posts of 2 likes. */
  appFriends: number[];
  posts: { popular: number; quiet: number; story: number; bobs: number; daves: number; secret: number };
  likers: number[];
  album: number;
  photos: number[];
  pages: number[];
  aliceToken: string;
  /**
   * A fresh token of the fixture's app for this user with these scopes, valid an hour; the user
   * grants the app those scopes first, as a token carries only what its person grants.
   */
  tokenFor(userId: number, scopes: string[]): Promise<string>;
  /**
   * A token of Alice's with public_profile and these scopes only. She keeps every grant she gave
   * the app, so whatever the token cannot reach is kept out by its own scopes.
   */
  aliceWith(...scopes: string[]): Promise<string>;
  scoped(userId: number): string;
  postId(postId: number, owner: number): string;
}

export const NOW = 1_760_000_000;
const DAY = 86_400;

/** What seeding the fixture answers: every id and token the tests use. */
type Seeded = Pick<Fixture, 'app' | 'users' | 'appFriends' | 'posts' | 'likers' | 'album' | 'photos' | 'pages' | 'aliceToken'>;

/** The fixture's graph in a store of its own, copied from the test run's template of it. */
export async function buildFixture(): Promise<Fixture> {
  const { store, location, seeded } = await seededStore('fixture', seedFixture);
  const { app, users } = seeded;
  const ids = scopedIdsFor(app);
  return {
    ...seeded,
    store,
    path: location,
    now: NOW,
    tokenFor: async (userId, scopes) => {
      await recordConsent(store, graphSchema().permissions, app.id, userId, { granted: scopes, declined: [] });
      return (await issueUserToken(store, { appId: app.id, userId, scopes, expiresIn: 3600, now: NOW })).accessToken;
    },
    aliceWith: async (...scopes) =>
      (await issueUserToken(store, { appId: app.id, userId: users.alice, scopes: ['public_profile', ...scopes], expiresIn: 3600, now: NOW })).accessToken,
    scoped: (id) => ids.scope(id),
    postId: (id, owner) => `${ids.scope(owner)}_${id}`,
  };
}

async function seedFixture(store: Store): Promise<Seeded> {
  const app = await store.createApp({
    name: 'Test App',
    secret: randomBytes(16).toString('hex'),
    idKey: randomBytes(16).toString('hex'),
    createdTime: NOW - 400 * DAY,
    redirectUris: ['https://app.example/callback', 'https://app.example/cb'],
  });
  const created = async (ops: WriteOp[]) => (await store.write(ops)).results as number[];
  const user = (name: string, extra: Record<string, unknown> = {}): WriteOp => ({
    op: 'createObject',
    object: { type: 'user', owner: null, createdTime: NOW - 300 * DAY, data: { name, first_name: name.split(' ')[0], last_name: name.split(' ')[1], ...extra } },
  });
  const [alice, bob, carol, dave] = await created([
    user('Alice Arden', { birthday: '04/12/1990', email: 'alice@example.com', gender: 'female', locale: 'en_US' }),
    user('Bob Brook', { birthday: '01/02/1985' }),
    user('Carol Crane'),
    user('Dave Dale'),
  ]);
  const friendsOps = (a: number, b: number, time: number): WriteOp[] => [
    { op: 'addAssoc', type: 'friends', id1: a, id2: b, time },
    { op: 'addAssoc', type: 'friends', id1: b, id2: a, time },
  ];
  await store.write([...friendsOps(alice!, bob!, NOW - 200 * DAY), ...friendsOps(alice!, carol!, NOW - 190 * DAY)]);

  const likers = await created(Array.from({ length: 1000 }, (_, i) => user(`Liker ${String(i).padStart(4, '0')}`)));
  const appFriends = await created(Array.from({ length: 24 }, (_, i) => user(`Friend ${String(i).padStart(2, '0')}`)));
  await store.write(appFriends.flatMap((friend, i) => friendsOps(alice!, friend, NOW - 100 * DAY + i)));

  const post = (owner: number, time: number, data: Record<string, unknown>): WriteOp => ({
    op: 'createObject',
    object: { type: 'post', owner, createdTime: time, data },
  });
  const [popular, quiet, story, bobs, daves, secret] = await created([
    post(alice!, NOW - 10 * DAY, { message: 'Hello, loom', privacy: { value: 'EVERYONE', description: 'Public' } }),
    post(alice!, NOW - 5 * DAY, { message: 'A quiet post', privacy: { value: 'ALL_FRIENDS', description: 'Your friends' } }),
    post(alice!, NOW - 3 * DAY, { story: 'Alice Arden updated her profile picture.', privacy: { value: 'EVERYONE' } }),
    post(bob!, NOW - 4 * DAY, { message: "Bob's news", privacy: { value: 'ALL_FRIENDS' } }),
    post(dave!, NOW - 4 * DAY, { message: "Dave's news", privacy: { value: 'ALL_FRIENDS' } }),
    post(bob!, NOW - 2 * DAY, { message: 'Only me', privacy: { value: 'SELF' } }),
  ]);
  const wall = (owner: number, id: number, time: number): WriteOp[] => [
    { op: 'addAssoc', type: 'posts', id1: owner, id2: id, time },
    { op: 'addAssoc', type: 'feed', id1: owner, id2: id, time },
  ];
  await store.write([
    ...wall(alice!, popular!, NOW - 10 * DAY),
    ...wall(alice!, quiet!, NOW - 5 * DAY),
    ...wall(alice!, story!, NOW - 3 * DAY),
    ...wall(bob!, bobs!, NOW - 4 * DAY),
    ...wall(dave!, daves!, NOW - 4 * DAY),
    ...wall(bob!, secret!, NOW - 2 * DAY),
  ]);
  // 1,000 likes on the popular post, one second apart, plus alice's own like on bob's post.
  await store.write(
    likers.flatMap((liker, i): WriteOp[] => [
      { op: 'addAssoc', type: 'likes', id1: popular!, id2: liker, time: NOW - 9 * DAY + i },
      { op: 'addAssoc', type: 'liked', id1: liker, id2: popular!, time: NOW - 9 * DAY + i },
    ]),
  );
  await store.write([{ op: 'addAssoc', type: 'likes', id1: bobs!, id2: alice!, time: NOW - 3 * DAY }]);

  const comments = await created([1, 2, 3].map((n) => ({
    op: 'createObject' as const,
    object: { type: 'comment', owner: bob!, createdTime: NOW - 8 * DAY + n, data: { message: `Comment ${n}`, parent: popular, thread: popular } },
  })));
  await store.write(comments.map((comment, n) => ({ op: 'addAssoc' as const, type: 'comments', id1: popular!, id2: comment, time: NOW - 8 * DAY + n + 1 })));

  // Each app-using friend has five posts with two likes each: the batching test's 25 × 5 shape.
  const friendPosts = await created(
    appFriends.flatMap((friend, i) =>
      Array.from({ length: 5 }, (_, n) => post(friend, NOW - 20 * DAY + i * 10 + n, { message: `Post ${n} of friend ${i}`, privacy: { value: 'ALL_FRIENDS' } })),
    ),
  );
  await store.write(
    friendPosts.flatMap((postId, index): WriteOp[] => {
      const owner = appFriends[Math.floor(index / 5)]!;
      const time = NOW - 20 * DAY + Math.floor(index / 5) * 10 + (index % 5);
      return [
        ...wall(owner, postId, time),
        { op: 'addAssoc', type: 'likes', id1: postId, id2: likers[index % 1000]!, time: time + 1 },
        { op: 'addAssoc', type: 'likes', id1: postId, id2: likers[(index + 1) % 1000]!, time: time + 2 },
      ];
    }),
  );

  const [album] = await created([{ op: 'createObject', object: { type: 'album', owner: alice!, createdTime: NOW - 50 * DAY, data: { name: 'Holidays', type: 'normal', privacy: 'friends' } } }]);
  const photos = await created(Array.from({ length: 5 }, (_, i) => ({
    op: 'createObject' as const,
    object: { type: 'photo', owner: alice!, createdTime: NOW - 50 * DAY + i, data: { name: `Photo ${i}`, width: 800, height: 600, album, privacy: { value: 'ALL_FRIENDS' } } },
  })));
  await store.write([
    { op: 'addAssoc', type: 'albums', id1: alice!, id2: album!, time: NOW - 50 * DAY },
    ...photos.flatMap((photo, i): WriteOp[] => [
      { op: 'addAssoc', type: 'album_photos', id1: album!, id2: photo, time: NOW - 50 * DAY + i },
      { op: 'addAssoc', type: 'photos', id1: alice!, id2: photo, time: NOW - 50 * DAY + i },
    ]),
  ]);
  const pages = await created(['Loom Fans', 'Weavers Guild'].map((name) => ({
    op: 'createObject' as const,
    object: { type: 'page', owner: null, createdTime: NOW - 365 * DAY, data: { name, category: 'Community' } },
  })));
  await store.write(pages.map((page, i) => ({ op: 'addAssoc' as const, type: 'liked_pages', id1: alice!, id2: page, time: NOW - 30 * DAY + i })));

  const everything = graphSchema().allScopes().map((scope) => ({ scope, status: 'granted' as const }));
  const appUser = ['public_profile', 'user_friends', 'user_posts'].map((scope) => ({ scope, status: 'granted' as const }));
  await store.setGrants(app.id, [
    { userId: alice!, grants: everything },
    { userId: bob!, grants: appUser },
    { userId: dave!, grants: appUser.slice(0, 2) },
    ...appFriends.map((friend) => ({ userId: friend, grants: appUser })),
    // The likers use the app, so its likes lists show them; Carol is the friend who never used it.
    ...likers.map((liker) => ({ userId: liker, grants: appUser.slice(0, 1) })),
  ]);

  const { accessToken } = await issueUserToken(store, {
    appId: app.id,
    userId: alice!,
    scopes: graphSchema().allScopes(),
    expiresIn: 7200,
    now: NOW,
  });
  return {
    app,
    users: { alice: alice!, bob: bob!, carol: carol!, dave: dave! },
    appFriends,
    posts: { popular: popular!, quiet: quiet!, story: story!, bobs: bobs!, daves: daves!, secret: secret! },
    likers,
    album: album!,
    photos,
    pages,
    aliceToken: accessToken,
  };
}
