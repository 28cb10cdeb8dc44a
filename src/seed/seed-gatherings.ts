/**
 * Events with their guests' answers and walls, groups with their members and posts, and videos
 * with the friends tagged in them. Everyone in them is a person of the graph; the demo user
 * hosts and answers events of every kind, runs groups, and uploads and is tagged in videos, so
 * each of her events, groups and videos edges has data.
 */
import type { Ref } from '../store/write-ops.js';
import type { ObjectId } from '../ids.js';
import {
  EVENT_DESCRIPTIONS, EVENT_NAMES, EVENT_WALL_POSTS, GROUP_DESCRIPTIONS, GROUP_NAMES, GROUP_POSTS, TIME_ZONES,
  VENUES, VIDEO_DESCRIPTIONS, VIDEO_TITLES,
} from './gathering-phrases.js';
import type { Person } from './people.js';
import { CITIES, type City } from './places.js';
import { privacyOf, type Audience } from './privacy.js';
import type { Random } from './random.js';
import { chooseLikers, countReactions, queueComments, queueLikes, type ReactionCounts } from './reactions.js';
import type { SeedContext } from './seed-context.js';
import { HOUR, DAY } from './durations.js';

type GatheringCounts = Record<'events' | 'groups' | 'videos', number>;

/** The answers a guest may give, with the lists keeping them (see graph/posts.ts). */
export const ANSWERS = [
  { guests: 'attending', events: 'events_attending' },
  { guests: 'maybe', events: 'events_maybe' },
  { guests: 'declined', events: 'events_declined' },
  { guests: 'noreply', events: 'events_not_replied' },
] as const;

/** A video written, for the comments written on it afterwards. */
export interface VideoRecord {
  id: ObjectId;
  owner: number;
  time: number;
}

/** What was written, with what later phases add to: the videos, and the groups' names in turn. */
export interface Gatherings {
  counts: GatheringCounts;
  videos: VideoRecord[];
  groupNames: string[];
  /** Each group admin's last bookmark order, which the groups written later carry on from. */
  groupBookmarks: Map<number, number>;
}

export async function writeGatherings(random: Random, context: SeedContext): Promise<Gatherings> {
  const events = await writeEvents(random.fork('events'), context);
  const groups = await writeGroups(random.fork('groups'), context, events.ids);
  const videos = await writeVideos(random.fork('videos'), context);
  return { counts: { events: events.ids.length, groups: groups.count, videos: videos.length }, videos, groupNames: groups.names, groupBookmarks: groups.bookmarks };
}

/**
 * Comments on videos, written once every other object of the graph is, so that the ids of the
 * rest stay as they were before videos had comments. Friends of the uploader comment on some
 * videos; on each of the demo user's, so her uploaded videos show comments.
 */
export async function writeVideoComments(random: Random, context: SeedContext, videos: readonly VideoRecord[]): Promise<ReactionCounts> {
  const made: ReactionCounts = { comments: 0, likes: 0 };
  for (const video of videos) {
    const friends = context.friends[video.owner] ?? [];
    const count = video.owner === 0 ? random.int(1, 4) : random.chance(0.6) ? 0 : random.int(1, 3);
    countReactions(made, queueComments(random, context, video.id, video.time, count, friends, friends));
    await context.buffer.endUnit();
  }
  await context.buffer.flush();
  return made;
}

/** `2015-07-18T19:00:00-0700`: the event's local time with its offset, as the service writes it. */
function localTime(unix: number, offsetHours: number): string {
  const local = new Date((unix + offsetHours * HOUR) * 1000).toISOString().slice(0, 19);
  const sign = offsetHours < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offsetHours))).padStart(2, '0');
  return `${local}${sign}${hours}00`;
}

function placeOf(random: Random, city: City): Record<string, unknown> {
  return { name: `${random.pick(VENUES)}, ${city.name}`, location: { city: city.name, country: city.country } };
}

/**
 * An event `host` created, in their city, with its name and times, `ago` seconds (whole days)
 * earlier than the recent ones; `receive` learns its id.
 */
export function createEvent(random: Random, context: SeedContext, host: number, ago: number, receive: (id: ObjectId) => void): { event: Ref; created: number } {
  const { buffer, people, userIds } = context;
  const now = context.now - ago;
  const person = people[host] as Person;
  const city = CITIES[person.location] as City;
  const created = now - random.int(10 * DAY, 120 * DAY);
  // Some events are over, most are still to come; all start between 10:00 and 21:00 local time.
  const day = Math.floor((now + random.int(-60 * DAY, 90 * DAY)) / DAY) * DAY;
  const start = day + (random.int(10, 21) - city.timezone) * HOUR;
  const data: Record<string, unknown> = {
    name: random.pick(EVENT_NAMES),
    description: random.pick(EVENT_DESCRIPTIONS),
    start_time: localTime(start, city.timezone),
    end_time: localTime(start + random.int(2, 6) * HOUR, city.timezone),
    timezone: TIME_ZONES[city.timezone] ?? 'UTC',
    place: placeOf(random, city),
    owner: userIds[host],
    // Most events are open; the others are seen by their guests only.
    privacy: random.chance(0.8) ? 'OPEN' : random.pick(['FRIENDS', 'SECRET']),
    is_canceled: random.chance(0.05),
  };
  const event = buffer.create({ type: 'event', owner: null, createdTime: created, updatedTime: created, data }, receive);
  buffer.link('events_created', userIds[host] as ObjectId, event, created);
  return { event, created };
}

async function writeEvents(random: Random, context: SeedContext): Promise<{ ids: ObjectId[] }> {
  const { buffer, people, friends, now } = context;
  const count = Math.min(200, Math.max(6, Math.floor(people.length / 10)));
  const ids: ObjectId[] = [];
  /** Each event's host and guests, in the order the events are created (the order of `ids`). */
  const guestLists: number[][] = [];
  for (let index = 0; index < count; index++) {
    // The demo user hosts the first two; the others are her friends' or anyone's.
    const demoFriends = friends[0] ?? [];
    const host = index < 2 || people.length === 1 ? 0 : index < 8 && demoFriends.length > 0 ? random.pick(demoFriends) : random.int(0, people.length - 1);
    const { event, created } = createEvent(random, context, host, 0, (id) => ids.push(id));
    // The host attends; friends are invited and answer, the demo user to the first events each way.
    const invitees = random.sample(friends[host] ?? [], random.int(3, 25)).filter((guest) => guest !== host);
    if (host !== 0 && index < 8 && !invitees.includes(0)) invitees.push(0);
    answer(context, event, host, ANSWERS[0], created);
    guestLists.push([host, ...invitees]);
    for (const guest of invitees) {
      const choice = guest === 0 && index < 8 ? ANSWERS[index % ANSWERS.length]! : pickAnswer(random);
      answer(context, event, guest, choice, Math.min(now, created + random.int(HOUR, 5 * DAY)));
    }
    await buffer.endUnit();
  }
  await buffer.flush();

  // Walls: a few posts by guests, with likes, once the events' ids are known.
  for (const [index, eventId] of ids.entries()) {
    const posts = random.int(0, 3);
    for (let n = 0; n < posts; n++) {
      const author = random.pick(guestLists[index] ?? [0]);
      const time = now - random.int(HOUR, 9 * DAY);
      const post = writeWallPost(context, eventId, author, time, random.pick(EVENT_WALL_POSTS), 'EVERYONE');
      queueLikes(random, context, post, time, chooseLikers(random, context, author, random.int(0, 4), true));
    }
    await buffer.endUnit();
  }
  await buffer.flush();
  return { ids };
}

export function pickAnswer(random: Random): (typeof ANSWERS)[number] {
  const roll = random.next();
  return ANSWERS[roll < 0.5 ? 0 : roll < 0.65 ? 1 : roll < 0.75 ? 2 : 3];
}

/** `guest` is invited to `event` and answers `choice`. */
export function answer(context: SeedContext, event: Ref, guest: number, choice: (typeof ANSWERS)[number], time: number): void {
  const userId = context.userIds[guest] as ObjectId;
  context.buffer.link('invited', event, userId, time);
  context.buffer.link(choice.guests, event, userId, time);
  context.buffer.link(choice.events, userId, event, time);
}

/** A group as written: who runs it, who may read its posts, since when. */
/** A person's status post on a gathering's wall (an event's or a group's), listed in its feed. */
function writeWallPost(context: SeedContext, wall: ObjectId, author: number, time: number, message: string, privacy: Audience): Ref {
  const { buffer, userIds } = context;
  const post = buffer.create({
    type: 'post',
    owner: userIds[author] as ObjectId,
    createdTime: time,
    updatedTime: time,
    data: { message, type: 'status', status_type: 'wall_post', privacy: privacyOf(privacy), to: [wall] },
  });
  buffer.link('feed', wall, post, time);
  return post;
}

export interface GroupPlan {
  id: ObjectId;
  admin: number;
  privacy: string;
  created: number;
}

/** The `index`th group's name: the names in turn, numbered from their second round. */
export function groupName(names: readonly string[], index: number): string {
  return `${names[index % names.length]}${index >= names.length ? ` ${Math.floor(index / names.length) + 1}` : ''}`;
}

/** A group `admin` runs, made `ago` seconds before the recent ones; its id is in the plan once the batch is written. */
export function createGroup(random: Random, context: SeedContext, admin: number, name: string, ago: number): GroupPlan {
  const { buffer, userIds, now } = context;
  const created = now - ago - random.int(60 * DAY, 700 * DAY);
  const roll = random.next();
  const privacy = roll < 0.65 ? 'OPEN' : roll < 0.9 ? 'CLOSED' : 'SECRET';
  const data: Record<string, unknown> = {
    name,
    description: random.pick(GROUP_DESCRIPTIONS),
    privacy,
    owner: userIds[admin],
  };
  const plan = { id: 0, admin, privacy, created };
  buffer.create({ type: 'group', owner: null, createdTime: created, updatedTime: created, data }, (id) => (plan.id = id));
  return plan;
}

/** Members (the demo user among them when `withDemoUser`), posts that name the group, and perhaps an event it hosts. */
export function fillGroup(
  random: Random,
  context: SeedContext,
  group: GroupPlan,
  events: readonly ObjectId[],
  withDemoUser: boolean,
  bookmarks: Map<number, number>,
): void {
  const { buffer, userIds, friends, now } = context;
  const { id, admin, privacy, created } = group;
  // A person's bookmarks list the groups they run one after another, as the demo graph makes them.
  const bookmarkOrder = (bookmarks.get(admin) ?? 0) + 1;
  bookmarks.set(admin, bookmarkOrder);
  buffer.link('managed_groups', userIds[admin] as ObjectId, id, created, { bookmark_order: bookmarkOrder });
  const members = [admin, ...random.sample(friends[admin] ?? [], random.int(3, 30)).filter((member) => member !== admin)];
  if (withDemoUser && !members.includes(0)) members.push(0);
  for (const member of members) buffer.link('members', id, userIds[member] as ObjectId, created + random.int(0, 30 * DAY));
  const posts = random.int(2, 6);
  for (let n = 0; n < posts; n++) {
    const author = random.pick(members);
    const time = now - random.int(HOUR, 50 * DAY);
    const post = writeWallPost(context, id, author, time, random.pick(GROUP_POSTS), privacy === 'OPEN' ? 'EVERYONE' : 'ALL_FRIENDS');
    queueLikes(random, context, post, time, random.sample(members, random.int(0, Math.min(5, members.length))).filter((liker) => liker !== author));
  }
  if (events.length > 0 && random.chance(0.5)) buffer.link('events', id, random.pick(events), created);
}

async function writeGroups(random: Random, context: SeedContext, events: readonly ObjectId[]): Promise<{ count: number; names: string[]; bookmarks: Map<number, number> }> {
  const { buffer, people } = context;
  const count = Math.min(GROUP_NAMES.length * 4, Math.max(3, Math.floor(people.length / 25)));
  const names = random.shuffle([...GROUP_NAMES]);
  const groups: GroupPlan[] = [];
  for (let index = 0; index < count; index++) {
    // Of these, the demo user runs the first two (and those of seed-second-pages.ts).
    const admin = index < 2 || people.length === 1 ? 0 : random.int(1, people.length - 1);
    groups.push(createGroup(random, context, admin, groupName(names, index), 0));
    await buffer.endUnit();
  }
  await buffer.flush();

  // Members, posts that name their group, and hosted events, once the groups' ids are known. The
  // demo user also belongs to a group she does not run.
  const bookmarks = new Map<number, number>();
  for (const [index, group] of groups.entries()) {
    fillGroup(random, context, group, events, index === 2, bookmarks);
    await buffer.endUnit();
  }
  await buffer.flush();
  return { count, names, bookmarks };
}

/**
 * A video `owner` uploads (`first`: their first), `ago` seconds before the recent ones, with the
 * friends tagged in it and its likes.
 */
export function createVideo(random: Random, context: SeedContext, owner: number, first: boolean, ago: number, receive: (id: ObjectId, time: number) => void): void {
  const { buffer, userIds, friends, now } = context;
  const time = now - ago - random.int(HOUR, 400 * DAY);
  const audience = random.chance(0.5) ? 'EVERYONE' : 'ALL_FRIENDS';
  const data: Record<string, unknown> = {
    title: random.pick(VIDEO_TITLES),
    description: random.pick(VIDEO_DESCRIPTIONS),
    length: random.int(3_000, 240_000) / 1000,
    privacy: privacyOf(audience),
  };
  const ownerId = userIds[owner] as ObjectId;
  const video = buffer.create({ type: 'video', owner: ownerId, createdTime: time, updatedTime: time, data }, (id) => receive(id, time));
  buffer.link('videos_uploaded', ownerId, video, time);
  // Friends in the video are tagged; the demo user's friends tag her in their first videos.
  const tagged = random.sample(friends[owner] ?? [], random.int(0, 3));
  if (owner !== 0 && first && (friends[0] ?? []).includes(owner) && !tagged.includes(0)) tagged.push(0);
  for (const person of tagged) buffer.link('videos_tagged', userIds[person] as ObjectId, video, time);
  queueLikes(random, context, video, time, chooseLikers(random, context, owner, random.int(0, 6), audience === 'EVERYONE'));
}

async function writeVideos(random: Random, context: SeedContext): Promise<VideoRecord[]> {
  const { buffer, people } = context;
  const written: VideoRecord[] = [];
  for (let owner = 0; owner < people.length; owner++) {
    const uploads = owner === 0 ? 3 : random.chance(0.2) ? random.int(1, 3) : 0;
    for (let n = 0; n < uploads; n++) {
      createVideo(random, context, owner, n === 0, 0, (id, time) => written.push({ id, owner, time }));
      await buffer.endUnit();
    }
  }
  await buffer.flush();
  return written;
}
