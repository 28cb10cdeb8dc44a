/** The users themselves, their friendships and the pages they like. */
import type { ObjectId } from '../ids.js';
import type { OpBuffer } from './op-buffer.js';
import type { PageCatalog } from './page-catalog.js';
import type { Person } from './people.js';
import { EmailBook, fullProfile, likerProfile } from './profile.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import type { SeedProgress } from './seed-progress.js';
import { DAY } from './durations.js';

/**
 * Writes the people (the demo user first, so she gets the first user id) and then the extra
 * likers. Returns the user ids in that order and the people's stored profiles.
 */
export async function writeUsers(
  random: Random,
  buffer: OpBuffer,
  progress: SeedProgress,
  people: readonly Person[],
  likers: readonly Person[],
  catalog: PageCatalog,
  now: number,
): Promise<{ userIds: ObjectId[]; profiles: Array<Record<string, unknown>> }> {
  const emails = new EmailBook();
  const userIds: ObjectId[] = new Array<ObjectId>(people.length + likers.length).fill(0);
  const profiles: Array<Record<string, unknown>> = [];
  const everyone = [...people, ...likers];
  for (let index = 0; index < everyone.length; index++) {
    const person = everyone[index] as Person;
    const email = emails.assign(person.firstName, person.lastName);
    const isLiker = index >= people.length;
    const data = isLiker
      ? likerProfile(random, person, email)
      : fullProfile(random, person, catalog, email, now, index === 0);
    if (!isLiker) profiles.push(data);
    buffer.create(
      { type: 'user', owner: null, createdTime: person.joinedTime, updatedTime: person.profileTime, data },
      (id) => (userIds[index] = id),
    );
    progress.advance(1);
    await buffer.endUnit();
  }
  await buffer.flush();
  return { userIds, profiles };
}

/** Writes each friendship in both directions, dated after both people joined. */
export async function writeFriendships(random: Random, context: SeedContext, unitsPerPerson: number): Promise<number> {
  const { buffer, now, people, userIds, friends } = context;
  let pairs = 0;
  for (let a = 0; a < people.length; a++) {
    for (const b of friends[a] ?? []) {
      if (b < a) continue;
      const since = Math.max((people[a] as Person).joinedTime, (people[b] as Person).joinedTime);
      const time = random.int(since, now - DAY);
      buffer.link('friends', userIds[a] as ObjectId, userIds[b] as ObjectId, time);
      buffer.link('friends', userIds[b] as ObjectId, userIds[a] as ObjectId, time);
      pairs++;
    }
    context.progress.advance(unitsPerPerson);
    await buffer.endUnit();
  }
  await buffer.flush();
  return pairs;
}

/** Each person likes 3–15 pages (`liked_pages`, with the page's `fans`). */
export async function writePageLikes(
  random: Random,
  context: SeedContext,
  pages: readonly ObjectId[],
  unitsPerPerson: number,
): Promise<number> {
  const { buffer, now, people, userIds } = context;
  let likes = 0;
  for (let person = 0; person < people.length; person++) {
    const userId = userIds[person] as ObjectId;
    for (const page of random.sample(pages, random.int(3, 15))) {
      const time = random.int((people[person] as Person).joinedTime, now - DAY);
      buffer.link('liked_pages', userId, page, time);
      buffer.link('fans', page, userId, time);
      likes++;
    }
    context.progress.advance(unitsPerPerson);
    await buffer.endUnit();
  }
  await buffer.flush();
  return likes;
}
