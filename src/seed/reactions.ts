/**
 * Likes and comments on posts and photos. Reactions come soon after the thing they react to
 * (most within hours, a few days later), and never after `now`.
 */
import type { IdOrRef } from '../store/write-ops.js';
import type { ObjectId } from '../ids.js';
import type { OpBuffer } from './op-buffer.js';
import { COMMENTS } from './phrases.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import { DAY } from './durations.js';

/** A moment after `time`: strongly skewed towards the first hours, at most `window` later. */
function reactionTime(random: Random, time: number, now: number, window: number): number {
  const room = Math.max(1, Math.min(window, now - time));
  return Math.min(now, time + 1 + Math.floor(Math.pow(random.next(), 3) * room));
}

/**
 * `count` distinct people to like something of `owner`'s: friends first, then (for things anyone
 * may see) anybody. Returns indexes into `SeedContext.userIds`.
 */
export function chooseLikers(
  random: Random,
  context: SeedContext,
  owner: number,
  count: number,
  publicAudience: boolean,
): number[] {
  const friends = context.friends[owner] ?? [];
  const chosen = random.sample(friends, count);
  if (!publicAudience || chosen.length >= count) return chosen;
  const everyone = context.userIds.length;
  const wanted = Math.min(count, everyone - 1);
  const taken = new Set<number>(chosen);
  taken.add(owner);
  while (chosen.length < wanted) {
    const candidate = random.int(0, everyone - 1);
    if (taken.has(candidate)) continue;
    taken.add(candidate);
    chosen.push(candidate);
  }
  return chosen;
}

/** Queues `likes` (object → user) with its inverse `liked` (user → object). */
export function queueLikes(
  random: Random,
  context: SeedContext,
  object: IdOrRef,
  objectTime: number,
  likers: readonly number[],
): void {
  for (const liker of likers) {
    const userId = context.userIds[liker] as ObjectId;
    const time = reactionTime(random, objectTime, context.now, 5 * DAY);
    context.buffer.link('likes', object, userId, time);
    context.buffer.link('liked', userId, object, time);
  }
}

/** How many comments and likes were queued. */
export type ReactionCounts = Record<'comments' | 'likes', number>;

/** Adds what one queueComments call queued to a step's running `counts`. */
export function countReactions(counts: ReactionCounts, made: ReactionCounts): void {
  counts.comments += made.comments;
  counts.likes += made.likes;
}

/**
 * Queues `count` comments on the object `parent` (already written, so its id is known) by
 * people among `commenters`, each possibly liked by a few of `likerCandidates`. Seeded comments
 * are all top-level, so the parent is their thread too.
 * Returns how many comments and comment likes were queued.
 */
export function queueComments(
  random: Random,
  context: SeedContext,
  parent: ObjectId,
  parentTime: number,
  count: number,
  commenters: readonly number[],
  likerCandidates: readonly number[],
): ReactionCounts {
  if (commenters.length === 0) return { comments: 0, likes: 0 };
  const buffer: OpBuffer = context.buffer;
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(reactionTime(random, parentTime, context.now, 3 * DAY));
  times.sort((a, b) => a - b);
  let likeCount = 0;
  for (const time of times) {
    const author = random.pick(commenters);
    const comment = buffer.create({
      type: 'comment',
      owner: context.userIds[author] as ObjectId,
      createdTime: time,
      updatedTime: time,
      data: { message: random.pick(COMMENTS), parent, thread: parent },
    });
    buffer.link('comments', parent, comment, time);
    buffer.link('thread_comments', parent, comment, time);
    if (random.chance(0.15)) {
      const likers = random.sample(
        likerCandidates.filter((person) => person !== author),
        random.int(1, 3),
      );
      queueLikes(random, context, comment, time, likers);
      likeCount += likers.length;
    }
  }
  return { comments: times.length, likes: likeCount };
}
