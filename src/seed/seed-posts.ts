/**
 * Posts over the six months before `now`, then their likes and comments. Activity is skewed:
 * most posts get a handful of likes or none, a few get hundreds (at least three of the demo
 * user's, so the Explorer can show paging through a long likes list).
 */
import type { ObjectId } from '../ids.js';
import { postData, showsPhoto, type PostKind } from './post-content.js';
import type { Person } from './people.js';
import type { Audience } from './privacy.js';
import type { PhotoRecord } from './seed-albums.js';
import type { Random } from './random.js';
import { chooseLikers, countReactions, queueComments, queueLikes, type ReactionCounts } from './reactions.js';
import type { SeedContext } from './seed-context.js';
import { DAY } from './durations.js';

const POSTING_WINDOW = 182 * DAY;
const DEMO_POPULAR_POSTS = 3;
/** Fewest likes of each of the demo user's popular posts (when there are that many people). */
const DEMO_POPULAR_MIN_LIKES = 300;
const POPULAR_MAX_LIKES = 450;

type Popularity = 'demo' | 'high' | 'normal';

export interface PostRecord {
  id: ObjectId;
  author: number;
  /** The friend whose wall the post is on; the author for ordinary posts. */
  wallOwner: number;
  time: number;
  audience: Audience;
  popularity: Popularity;
  /** What the post holds, kept to name its photo once the photos exist. */
  data: Record<string, unknown>;
  showsPhoto: boolean;
}

export type PostCounts = Record<'posts' | 'wallPosts', number>;

function postCountOf(random: Random, person: number): number {
  return person === 0 ? random.int(25, 35) : random.skewed(5, 40, 2.2);
}

/** Writes every person's posts with their `posts` and `feed` associations. */
export async function writePosts(
  random: Random,
  context: SeedContext,
  unitsPerPerson: number,
): Promise<{ records: PostRecord[]; counts: PostCounts }> {
  const { buffer, now, people, userIds, friends } = context;
  const records: PostRecord[] = [];
  const counts: PostCounts = { posts: 0, wallPosts: 0 };
  for (let author = 0; author < people.length; author++) {
    const count = postCountOf(random, author);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(now - random.int(60, POSTING_WINDOW));
    times.sort((a, b) => a - b);
    const popular = new Set(author === 0 ? random.sample([...times.keys()], DEMO_POPULAR_POSTS) : []);
    const authorFriends = friends[author] ?? [];

    for (let i = 0; i < count; i++) {
      const time = times[i] as number;
      let kind: PostKind;
      let audience: Audience;
      let popularity: Popularity = 'normal';
      if (popular.has(i)) {
        kind = random.pick(['status', 'link', 'photos'] as const);
        audience = 'EVERYONE';
        popularity = 'demo';
      } else if (authorFriends.length > 0 && random.chance(0.08)) {
        kind = 'wall';
        audience = 'ALL_FRIENDS';
      } else {
        kind = random.weighted<PostKind>([['status', 55], ['link', 20], ['photos', 15], ['profilePicture', 10]]);
        audience = random.weighted<Audience>([['EVERYONE', 40], ['ALL_FRIENDS', 55], ['SELF', 5]]);
        if (audience === 'EVERYONE' && random.chance(0.005)) popularity = 'high';
      }
      const wallOwner = kind === 'wall' ? random.pick(authorFriends) : author;
      const data = postData(random, kind, people[author] as Person, audience, kind === 'wall' ? userIds[wallOwner] : undefined);
      const record: PostRecord = { id: 0, author, wallOwner, time, audience, popularity, data, showsPhoto: showsPhoto(kind) };
      const post = buffer.create(
        { type: 'post', owner: userIds[author] as ObjectId, createdTime: time, updatedTime: time, data },
        (id) => (record.id = id),
      );
      buffer.link('posts', userIds[author] as ObjectId, post, time);
      buffer.link('feed', userIds[wallOwner] as ObjectId, post, time);
      records.push(record);
      counts.posts++;
      if (kind === 'wall') counts.wallPosts++;
      await buffer.endUnit();
    }
    context.progress.advance(unitsPerPerson);
  }
  await buffer.flush();
  return { records, counts };
}

function likeCountOf(random: Random, popularity: Popularity, everyone: number): number {
  const most = Math.min(POPULAR_MAX_LIKES, everyone - 1);
  switch (popularity) {
    case 'demo':
      return random.int(Math.min(DEMO_POPULAR_MIN_LIKES, most), most);
    case 'high':
      return random.int(Math.min(100, most), most);
    case 'normal':
      return random.chance(0.4) ? 0 : random.skewed(1, 25, 4);
  }
}

/** Likes and comments of every post; what only its author sees gets none. */
export async function writePostReactions(
  random: Random,
  context: SeedContext,
  posts: readonly PostRecord[],
  unitsPerPost: number,
): Promise<ReactionCounts> {
  const { buffer, friends } = context;
  const counts: ReactionCounts = { comments: 0, likes: 0 };
  for (const post of posts) {
    if (post.audience !== 'SELF') {
      const likers = chooseLikers(
        random,
        context,
        post.author,
        likeCountOf(random, post.popularity, context.userIds.length),
        post.audience === 'EVERYONE',
      );
      queueLikes(random, context, post.id, post.time, likers);
      counts.likes += likers.length;

      // The wall owner's friends are the ones who see a post on that wall; the owner joins in
      // on every wall post and now and then under their own posts.
      const circle = friends[post.wallOwner] ?? [];
      const commenters = [...circle];
      if (post.wallOwner !== post.author || random.chance(0.2)) commenters.push(post.wallOwner);
      const commentCount = random.chance(0.5) ? 0 : random.skewed(1, 15, 4);
      countReactions(counts, queueComments(random, context, post.id, post.time, commentCount, commenters, circle));
    }
    context.progress.advance(unitsPerPost);
    await buffer.endUnit();
  }
  await buffer.flush();
  return counts;
}

/**
 * Each photo post names the photo it shows (`object_id`), which gives it its picture and its
 * attachment: the author's latest photo added by the post's time and not shown by an earlier
 * post, else the latest, else their first. Posts are
 * written before the photos, so this comes after both.
 */
export async function linkPhotoPosts(context: SeedContext, posts: readonly PostRecord[], photos: readonly PhotoRecord[]): Promise<void> {
  const { buffer } = context;
  const byOwner = new Map<number, PhotoRecord[]>();
  for (const photo of photos) (byOwner.get(photo.owner) ?? byOwner.set(photo.owner, []).get(photo.owner)!).push(photo);
  for (const list of byOwner.values()) list.sort((a, b) => a.time - b.time);
  // Each post shows a photo of its own where the author has enough: the latest not shown yet.
  const shownBefore = new Set<ObjectId>();
  for (const post of [...posts].sort((a, b) => a.time - b.time)) {
    const own = post.showsPhoto ? byOwner.get(post.author) : undefined;
    if (!own || own.length === 0) continue;
    const earlier = own.filter((photo) => photo.time <= post.time);
    const shown = earlier.filter((photo) => !shownBefore.has(photo.id)).pop() ?? earlier.pop() ?? own[0]!;
    shownBefore.add(shown.id);
    buffer.update(post.id, { ...post.data, object_id: String(shown.id) }, post.time);
    await buffer.endUnit();
  }
  await buffer.flush();
}
