/**
 * More of the demo user's events, groups and videos: enough that her lists read at the default
 * page size (25) have a next page, as the real service's answers had (fb_graph2's v2.0
 * user/events.json, user/groups.json and user/videos.json). Written once every other object of the
 * graph is, from a stream of their own, so that the ids and data of the rest stay as they were; and
 * older than those, so that they follow them in her lists, which still open as they did.
 */
import type { ObjectId } from '../ids.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import {
  ANSWERS, answer, createEvent, createGroup, createVideo, fillGroup, groupName, pickAnswer, writeVideoComments,
  type Gatherings, type GroupPlan, type VideoRecord,
} from './seed-gatherings.js';
import { HOUR, DAY, YEAR } from './durations.js';

/** How many more of each: with those written before, more than one page of the default size. */
export const SECOND_PAGE_ITEMS = 25;

export interface SecondPages {
  events: number;
  groups: number;
  videos: number;
  comments: number;
  likes: number;
}

export async function writeSecondPages(random: Random, context: SeedContext, gatherings: Gatherings): Promise<SecondPages> {
  const events = await moreEvents(random.fork('events'), context);
  const groups = await moreGroups(random.fork('groups'), context, gatherings, events);
  const videos = await moreVideos(random.fork('videos'), context);
  const reactions = await writeVideoComments(random.fork('video-comments'), context, videos);
  return { events: events.length, groups, videos: videos.length, ...reactions };
}

/**
 * Events of the years before, one every few weeks, that her friends hosted (she herself when she
 * has none) and she went to with a few of theirs.
 */
async function moreEvents(random: Random, context: SeedContext): Promise<ObjectId[]> {
  const { buffer, friends } = context;
  const ids: ObjectId[] = [];
  const demoFriends = friends[0] ?? [];
  for (let n = 0; n < SECOND_PAGE_ITEMS; n++) {
    const host = demoFriends.length > 0 ? random.pick(demoFriends) : 0;
    const { event, created } = createEvent(random, context, host, YEAR + n * 21 * DAY, (id) => ids.push(id));
    answer(context, event, host, ANSWERS[0], created);
    const answered = () => created + random.int(HOUR, 5 * DAY);
    if (host !== 0) answer(context, event, 0, ANSWERS[0], answered());
    for (const guest of random.sample(friends[host] ?? [], random.int(2, 8))) {
      if (guest !== host && guest !== 0) answer(context, event, guest, pickAnswer(random), answered());
    }
    await buffer.endUnit();
  }
  await buffer.flush();
  return ids;
}

/** Groups she has run since before the others, named on from them, with members and posts; some host one of the events above. */
async function moreGroups(random: Random, context: SeedContext, gatherings: Gatherings, events: readonly ObjectId[]): Promise<number> {
  const { buffer } = context;
  const groups: GroupPlan[] = [];
  for (let n = 0; n < SECOND_PAGE_ITEMS; n++) {
    groups.push(createGroup(random, context, 0, groupName(gatherings.groupNames, gatherings.counts.groups + n), 700 * DAY));
    await buffer.endUnit();
  }
  await buffer.flush();
  for (const group of groups) {
    fillGroup(random, context, group, events, false, gatherings.groupBookmarks);
    await buffer.endUnit();
  }
  await buffer.flush();
  return groups.length;
}

/** Videos she uploaded before the others, with tags and likes; the comments on them follow. */
async function moreVideos(random: Random, context: SeedContext): Promise<VideoRecord[]> {
  const written: VideoRecord[] = [];
  for (let n = 0; n < SECOND_PAGE_ITEMS; n++) {
    createVideo(random, context, 0, false, 400 * DAY, (id, time) => written.push({ id, owner: 0, time }));
    await context.buffer.endUnit();
  }
  await context.buffer.flush();
  return written;
}
