/**
 * The demo graph: an app ("Loom Demo"), a demo user who granted it every permission, and a social
 * graph around her (friends, posts, likes, comments, albums, photos, pages, events, groups,
 * videos), realistic enough to explore and deterministic: the same seed, size and `now` on an
 * empty store give the same objects with the same ids, app-scoped ids, times and password salts,
 * on every store. Only the app's secret is truly random: it signs, so it must never follow from
 * a published seed.
 */
import { registerApp } from '../auth/apps.js';
import { hashPassword, SALT_BYTES } from '../auth/passwords.js';
import type { Store } from '../store/store.js';
import type { UserGrants } from '../store/auth-store.js';
import type { OnSearchReindex } from '../store/search.js';
import type { ObjectId } from '../ids.js';
import { appUserGrants, chooseAppUsers } from './app-users.js';
import { buildFriendGraph } from './friend-graph.js';
import { OpBuffer } from './op-buffer.js';
import { createPageCatalog } from './page-catalog.js';
import { MAX_AGE, planLikers, planPeople, type Person } from './people.js';
import { Random } from './random.js';
import { writeAlbums } from './seed-albums.js';
import { writeClasses } from './seed-classes.js';
import { writeGatherings, writeVideoComments } from './seed-gatherings.js';
import type { SeedContext } from './seed-context.js';
import { writeFriendships, writePageLikes, writeUsers } from './seed-people.js';
import { linkPhotoPosts, writePostReactions, writePosts } from './seed-posts.js';
import { SeedProgress } from './seed-progress.js';
import { writePageGraph } from './seed-pages.js';
import { writeUserEdges } from './seed-user-edges.js';
import { writePageCovers } from './seed-page-covers.js';
import { writeSecondPages } from './seed-second-pages.js';
import { writePlaces } from './seed-places.js';
import { indexSeededGraph } from './search-index.js';

export interface SeedOptions {
  /** People in the social graph, the demo user included. */
  users: number;
  seed: string | number;
  /** Unix seconds: the graph's activity lies before it. */
  now: number;
  onProgress?: (done: number, total: number) => void;
  /** Told before the seeded graph is indexed for search, once it is written. */
  onSearchReindex?: OnSearchReindex;
}

export interface SeedResult {
  appId: ObjectId;
  demoUserId: ObjectId;
  counts: Record<string, number>;
}

export const DEMO_APP_NAME = 'Loom Demo';
/** The demo user signs in to the OAuth dialog with her profile email and this password. */
export const DEMO_PASSWORD = 'loom-demo';
/** Ops per `store.write` call. */
const BATCH_SIZE = 4000;
/**
 * People available to like a public post. Below this many users, extra users without friends or
 * grants make up the difference so that popular posts can have hundreds of likes.
 */
const LIKER_POOL = 500;
const DEMO_FRIENDS = 30;
const MIN_FRIENDS = 5;
const MAX_FRIENDS = 40;

/** Progress units per person for each phase, roughly in proportion to the writes it makes. */
const UNITS = { pages: 1, users: 1, friendships: 2, pageLikes: 1, grants: 1, posts: 3, postReactions: 10, albums: 8, touches: 1 };

function friendTargets(random: Random, count: number): number[] {
  const most = Math.max(0, count - 1);
  return Array.from({ length: count }, (_, person) =>
    Math.min(most, person === 0 ? DEMO_FRIENDS : random.skewed(MIN_FRIENDS, MAX_FRIENDS, 1.6)),
  );
}

function partnerPairs(people: readonly Person[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  people.forEach((person, index) => {
    if (person.partner !== undefined && person.partner > index) pairs.push([index, person.partner]);
  });
  return pairs;
}

/** Grants for everyone who uses the app, written in one store call. */
async function grantAppUsers(random: Random, store: Store, appId: ObjectId, context: SeedContext): Promise<number> {
  const usesApp = chooseAppUsers(random, context.friends);
  const entries: UserGrants[] = [];
  for (let person = 0; person < context.people.length; person++) {
    if (usesApp[person]) {
      entries.push({ userId: context.userIds[person] as ObjectId, grants: appUserGrants(random, person === 0) });
    }
    context.progress.advance(UNITS.grants);
  }
  await store.setGrants(appId, entries);
  context.progress.report();
  return entries.length;
}

/** Adds what needed other objects' ids: the partner (`significant_other`) and the cover photo. */
async function writeProfileTouches(
  random: Random,
  context: SeedContext,
  profiles: ReadonlyArray<Record<string, unknown>>,
  photosByPerson: readonly ObjectId[][],
): Promise<void> {
  const { buffer, people, userIds } = context;
  for (let index = 0; index < people.length; index++) {
    const person = people[index] as Person;
    const photos = photosByPerson[index] ?? [];
    const touches: Record<string, unknown> = {};
    if (person.partner !== undefined) touches.significant_other = userIds[person.partner];
    if (photos.length > 0 && (index === 0 || random.chance(0.7))) {
      touches.cover = { id: String(random.pick(photos)), offset_y: random.int(0, 60), source: '' };
    }
    if (Object.keys(touches).length > 0) {
      // The whole profile goes with the new keys, so the result is the same whether the store
      // merges or replaces `data` on update.
      buffer.update(userIds[index] as ObjectId, { ...profiles[index], ...touches }, person.profileTime);
    }
    context.progress.advance(UNITS.touches);
    await buffer.endUnit();
  }
  await buffer.flush();
}

export async function seedGraph(store: Store, options: SeedOptions): Promise<SeedResult> {
  const { users, now } = options;
  if (!Number.isInteger(users) || users < 1) throw new RangeError(`users must be a positive integer, not ${users}`);
  if (!Number.isInteger(now) || now <= 0) throw new RangeError(`now must be unix seconds, not ${now}`);

  const random = new Random(options.seed);
  const likerCount = Math.max(0, LIKER_POOL - users);
  const perPerson =
    UNITS.pages + UNITS.friendships + UNITS.pageLikes + UNITS.grants + UNITS.posts + UNITS.postReactions + UNITS.albums + UNITS.touches;
  const progress = new SeedProgress(users * perPerson + (users + likerCount) * UNITS.users, options.onProgress);
  const buffer = new OpBuffer(store, BATCH_SIZE, () => progress.report());

  // The app comes first: a store may draw app ids from the same sequence as object ids.
  const app = await registerApp(store, { name: DEMO_APP_NAME, now, idKey: random.fork('app-id-key').bytes(16).toString('hex') });

  const catalog = await createPageCatalog(buffer, random.fork('pages'), now, MAX_AGE);
  progress.advance(users * UNITS.pages);
  progress.report();

  const people = planPeople(random.fork('people'), users, now);
  const likers = planLikers(random.fork('likers'), likerCount, now);
  const { userIds, profiles } = await writeUsers(random.fork('profiles'), buffer, progress, people, likers, catalog, now);

  const friends = buildFriendGraph(random.fork('friends'), {
    targets: friendTargets(random.fork('friend-targets'), users),
    requiredPairs: partnerPairs(people),
    minFriends: MIN_FRIENDS,
    maxFriends: MAX_FRIENDS,
  });
  const context: SeedContext = { buffer, progress, now, people, userIds, friends };
  const friendships = await writeFriendships(random.fork('friendships'), context, UNITS.friendships);
  const pageLikes = await writePageLikes(random.fork('page-likes'), context, catalog.likeable, UNITS.pageLikes);
  const appUsers = await grantAppUsers(random.fork('grants'), store, app.id, context);

  const posts = await writePosts(random.fork('posts'), context, UNITS.posts);
  const postReactions = await writePostReactions(
    random.fork('post-reactions'),
    context,
    posts.records,
    (users * UNITS.postReactions) / Math.max(1, posts.records.length),
  );
  const albums = await writeAlbums(random.fork('albums'), context, UNITS.albums);
  await linkPhotoPosts(context, posts.records, albums.photos);
  await writeProfileTouches(random.fork('profile-touches'), context, profiles, albums.photosByPerson);
  const gatherings = await writeGatherings(random.fork('gatherings'), context);
  const pageGraph = await writePageGraph(random.fork('page-graph'), context, app.id);
  const userEdges = await writeUserEdges(random.fork('user-edges'), store, context, catalog, app.id);

  const places = await writePlaces(random.fork('places'), buffer, now);
  const videoReactions = await writeVideoComments(random.fork('video-comments'), context, gatherings.videos);
  const more = await writeSecondPages(random.fork('second-pages'), context, gatherings);
  const classPages = await writeClasses(random.fork('classes'), context, profiles);
  const pageCovers = await writePageCovers(random.fork('page-covers'), context, [...catalog.likeable, ...userEdges.likeablePages]);

  const demoUserId = userIds[0] as ObjectId;
  // Only the demo user gets a password: scrypt is slow on purpose, too slow for everyone.
  await store.setCredentials({
    userId: demoUserId,
    email: String(profiles[0]!.email),
    passwordHash: await hashPassword(DEMO_PASSWORD, random.fork('password-salt').bytes(SALT_BYTES)),
  });
  await store.setSetting('demo.app_id', String(app.id));
  // Written through ordinary writes, the graph is new to the database's planner.
  await store.refreshStatistics();
  progress.complete();
  await indexSeededGraph(store, options.onSearchReindex);
  // Written last: the graph is complete once it is there.
  await store.setSetting('demo.user_id', String(demoUserId));

  return {
    appId: app.id,
    demoUserId,
    counts: {
      users,
      likerUsers: likerCount,
      pages: catalog.size + classPages,
      friendships,
      pageLikes,
      appUsers,
      posts: posts.counts.posts,
      wallPosts: posts.counts.wallPosts,
      comments: postReactions.comments + albums.counts.comments + videoReactions.comments + more.comments,
      likes: postReactions.likes + albums.counts.likes + videoReactions.likes + more.likes,
      albums: albums.counts.albums,
      photos: albums.counts.photos,
      events: gatherings.counts.events + more.events,
      groups: gatherings.counts.groups + more.groups,
      videos: gatherings.counts.videos + more.videos,
      ...pageGraph,
      ...userEdges.counts,
      pageCovers,
      ...places,
    },
  };
}
