/**
 * The parts of the demo graph behind a person's remaining edges: liked pages listed by category
 * (books, movies, music, television, games), relatives, friend lists, check-ins and posts that
 * tag friends, and a few pending friend requests. Written after the core graph, from a random
 * stream of their own, so the core graph's objects and values stay as they were.
 */
import type { Store } from '../store/store.js';
import type { ObjectId } from '../ids.js';
import type { PageCatalog } from './page-catalog.js';
import type { Person } from './people.js';
import { CITIES } from './places.js';
import { privacyOf, type Audience } from './privacy.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import {
  CHECKIN_MESSAGES,
  EXTRA_LIKEABLE_PAGES,
  FRIEND_LISTS,
  KINSHIPS,
  LIKED_BY_CATEGORY,
  TAGGED_MESSAGES,
  VENUES,
} from './user-edge-content.js';
import { DAY } from './durations.js';

/** People whose liked pages are read back in one store call. */
const READ_CHUNK = 200;
/** More than anyone likes: every liked page of a person comes back in one page. */
const MOST_LIKES = 1000;

export type UserEdgeCounts = Record<'categoryLikes' | 'relatives' | 'friendLists' | 'checkins' | 'taggedPosts' | 'friendRequests', number>;

interface PlaceRef {
  id: string;
  name: string;
  location: Record<string, unknown>;
}

export async function writeUserEdges(
  random: Random,
  store: Store,
  context: SeedContext,
  catalog: PageCatalog,
  appId: ObjectId,
): Promise<{ counts: UserEdgeCounts; likeablePages: ObjectId[] }> {
  const places = await writePlacesAndPages(random.fork('pages'), context, catalog);
  const counts: UserEdgeCounts = {
    categoryLikes: await writeCategoryLikes(random.fork('likes'), store, context, catalog, places.extraPages),
    relatives: await writeFamilies(random.fork('family'), context),
    friendLists: await writeFriendLists(random.fork('friend-lists'), context),
    checkins: 0,
    taggedPosts: 0,
    friendRequests: await writeFriendRequests(random.fork('friend-requests'), context),
  };
  const appUsers = new Set((await store.getGrants(appId, context.userIds.slice(0, context.people.length))).keys());
  const posts = await writeTaggingPosts(random.fork('tags'), context, places.places, appUsers);
  counts.checkins = posts.checkins;
  counts.taggedPosts = posts.tagged;
  // The television shows and games written here join the catalog's pages that people like.
  return { counts, likeablePages: places.extraPages.map((page) => page.id) };
}

/** Television shows and games to like, and venues to check in at (cities are places too). */
async function writePlacesAndPages(
  random: Random,
  context: SeedContext,
  catalog: PageCatalog,
): Promise<{ extraPages: Array<{ id: ObjectId; category: string }>; places: PlaceRef[] }> {
  const { buffer, now } = context;
  const extraPages: Array<{ id: ObjectId; category: string }> = [];
  const places: PlaceRef[] = catalog.cities.map((ref, index) => ({
    id: ref.id,
    name: ref.name,
    location: { city: CITIES[index]!.name, country: CITIES[index]!.country },
  }));
  const created = () => now - random.int(365 * DAY, 8 * 365 * DAY);
  for (const page of EXTRA_LIKEABLE_PAGES) {
    const time = created();
    buffer.create({ type: 'page', owner: null, createdTime: time, updatedTime: time, data: { ...page } }, (id) =>
      extraPages.push({ id, category: page.category }),
    );
  }
  for (const venue of VENUES) {
    const city = CITIES[venue.city]!;
    const location = { street: venue.street, city: city.name, country: city.country, latitude: venue.latitude, longitude: venue.longitude };
    const time = created();
    buffer.create(
      { type: 'page', owner: null, createdTime: time, updatedTime: time, data: { name: venue.name, category: venue.category, location } },
      (id) => places.push({ id: String(id), name: venue.name, location }),
    );
  }
  await buffer.flush();
  return { extraPages, places };
}

/**
 * Each liked page of a listed category also goes into that category's list, at the time it was
 * liked; some people like shows and games as well, and the demo user likes some of every kind.
 */
async function writeCategoryLikes(
  random: Random,
  store: Store,
  context: SeedContext,
  catalog: PageCatalog,
  extraPages: ReadonlyArray<{ id: ObjectId; category: string }>,
): Promise<number> {
  const { buffer, now, people, userIds } = context;
  const likeable = await store.getObjects(catalog.likeable);
  const byCategory = new Map<string, ObjectId[]>();
  // In id order: the store may answer a batch of objects in any order, and the draws below must not depend on it.
  const catalogPages = [...likeable.values()].sort((a, b) => a.id - b.id).map((object) => ({ id: object.id, category: String(object.data.category) }));
  for (const page of [...catalogPages, ...extraPages]) {
    if (!(page.category in LIKED_BY_CATEGORY)) continue;
    byCategory.set(page.category, [...(byCategory.get(page.category) ?? []), page.id]);
  }
  let written = 0;
  for (let start = 0; start < people.length; start += READ_CHUNK) {
    const ids = userIds.slice(start, Math.min(people.length, start + READ_CHUNK));
    const { pages, objects } = await store.getPagesWithObjects({ type: 'liked_pages', id1s: ids, limit: MOST_LIKES });
    for (let offset = 0; offset < ids.length; offset++) {
      const person = start + offset;
      const userId = ids[offset]!;
      const liked = new Map<string, ObjectId[]>();
      for (const row of pages.get(userId) ?? []) {
        const category = String(objects.get(row.id2)?.data.category);
        const assoc = LIKED_BY_CATEGORY[category];
        if (!assoc) continue;
        buffer.link(assoc, userId, row.id2, row.time);
        liked.set(category, [...(liked.get(category) ?? []), row.id2]);
        written++;
      }
      for (const [category, choices] of byCategory) {
        const wanted = person === 0 ? 2 : random.chance(0.3) ? 1 : 0;
        const fresh = choices.filter((id) => !(liked.get(category) ?? []).includes(id));
        const have = (liked.get(category) ?? []).length;
        for (const page of random.sample(fresh, Math.max(0, wanted - (person === 0 ? have : 0)))) {
          const time = random.int((people[person] as Person).joinedTime, now - DAY);
          buffer.link('liked_pages', userId, page, time);
          buffer.link('fans', page, userId, time);
          buffer.link(LIKED_BY_CATEGORY[category]!, userId, page, time);
          written++;
        }
      }
      await buffer.endUnit();
    }
    await buffer.flush();
  }
  return written;
}

/** Some friends are relatives: each pair is written both ways, each side named as the other sees them. */
async function writeFamilies(random: Random, context: SeedContext): Promise<number> {
  const { buffer, now, people, userIds, friends } = context;
  const related = new Set<string>();
  let relatives = 0;
  await buffer.eachUnit(people.keys(), (a) => {
    const wanted = a === 0 ? 3 : random.chance(0.25) ? random.int(1, 2) : 0;
    const candidates = (friends[a] ?? []).filter((b) => b !== people[a]!.partner && !related.has(`${a}:${b}`));
    for (const b of random.sample(candidates, wanted)) {
      const kin = random.pick(KINSHIPS);
      const [personA, personB] = [people[a] as Person, people[b] as Person];
      const time = random.int(Math.max(personA.joinedTime, personB.joinedTime), now - DAY);
      // b is a's kin.name (a's sister); a is then b's kin.inverse (her brother, or her son).
      buffer.link('family', userIds[a] as ObjectId, userIds[b] as ObjectId, time, { relationship: kin.name[personB.gender] });
      buffer.link('family', userIds[b] as ObjectId, userIds[a] as ObjectId, time, { relationship: kin.inverse[personA.gender] });
      related.add(`${a}:${b}`).add(`${b}:${a}`);
      relatives += 2;
    }
  });
  return relatives;
}

/** The demo user sorted her friends into every kind of list; a few others keep close friends. */
async function writeFriendLists(random: Random, context: SeedContext): Promise<number> {
  const { buffer, now, people, userIds, friends } = context;
  let lists = 0;
  await buffer.eachUnit(people.keys(), (person) => {
    const own = friends[person] ?? [];
    if (own.length < 3) return;
    const kinds = person === 0 ? FRIEND_LISTS : random.chance(0.2) ? FRIEND_LISTS.slice(0, 1) : [];
    for (const kind of kinds) {
      const time = random.int((people[person] as Person).joinedTime, now - DAY);
      const list = buffer.create({ type: 'friendlist', owner: userIds[person] as ObjectId, createdTime: time, updatedTime: time, data: { ...kind } });
      buffer.link('friendlists', userIds[person] as ObjectId, list, time);
      for (const member of random.sample(own, random.int(3, Math.min(8, own.length)))) {
        buffer.link('members', list, userIds[member] as ObjectId, random.int(time, now - DAY));
      }
      lists++;
    }
  });
  return lists;
}

/** Two people who are not the demo user's friends asked to become hers. */
async function writeFriendRequests(random: Random, context: SeedContext): Promise<number> {
  const { buffer, now, people, userIds, friends } = context;
  const demoFriends = new Set(friends[0] ?? []);
  const strangers = people.map((_, index) => index).filter((index) => index !== 0 && !demoFriends.has(index));
  const senders = random.sample(strangers, 2);
  for (const sender of senders) {
    buffer.link('friend_requests', userIds[0] as ObjectId, userIds[sender] as ObjectId, now - random.int(DAY, 20 * DAY));
  }
  await buffer.flush();
  return senders.length;
}

/**
 * Check-ins (posts carrying a place, often tagging friends who were there) and posts tagging
 * friends. Everyone at a check-in lists it among their tagged places; everyone tagged lists the
 * post under `tagged`. The demo user checks in a few times and is tagged by friends who use the
 * app, so her edges show posts she may see.
 */
async function writeTaggingPosts(
  random: Random,
  context: SeedContext,
  places: readonly PlaceRef[],
  appUsers: ReadonlySet<ObjectId>,
): Promise<{ checkins: number; tagged: number }> {
  const { buffer, now, people, userIds, friends } = context;
  const counts = { checkins: 0, tagged: 0 };
  const write = (author: number, tagged: number[], place: PlaceRef | undefined, audience: Audience): void => {
    const authorPerson = people[author] as Person;
    const time = random.int(Math.max(authorPerson.joinedTime, now - 180 * DAY), now - 60);
    const authorId = userIds[author] as ObjectId;
    const taggedIds = tagged.map((index) => userIds[index] as ObjectId);
    const data: Record<string, unknown> = {
      message: random.pick(place ? CHECKIN_MESSAGES : TAGGED_MESSAGES),
      privacy: privacyOf(audience),
      type: 'status',
      status_type: 'mobile_status_update',
    };
    if (place) data.place = Number(place.id);
    if (taggedIds.length > 0) data.with_tags = taggedIds;
    const post = buffer.create({ type: 'post', owner: authorId, createdTime: time, updatedTime: time, data });
    buffer.link('posts', authorId, post, time);
    buffer.link('feed', authorId, post, time);
    for (const id of taggedIds) buffer.link('tagged', id, post, time);
    if (place) for (const id of [authorId, ...taggedIds]) buffer.link('tagged_places', id, post, time);
    if (place) counts.checkins++;
    if (taggedIds.length > 0) counts.tagged++;
  };

  for (let author = 0; author < people.length; author++) {
    const own = friends[author] ?? [];
    const checkins = author === 0 ? 4 : random.chance(0.3) ? random.int(1, 3) : 0;
    for (let i = 0; i < checkins; i++) {
      write(author, random.sample(own, random.int(0, 2)), random.pick(places), random.chance(0.5) ? 'EVERYONE' : 'ALL_FRIENDS');
    }
    if (author !== 0 && own.length > 0 && random.chance(0.15)) {
      write(author, random.sample(own, random.int(1, 2)), undefined, 'ALL_FRIENDS');
    }
    await buffer.endUnit();
  }
  // Friends who use the app tag the demo user, some of them at a place.
  const demoFriends = (friends[0] ?? []).filter((index) => appUsers.has(userIds[index] as ObjectId));
  random.sample(demoFriends, 3).forEach((friend, index) => {
    const others = (friends[friend] ?? []).filter((other) => other !== 0);
    const place = index === 0 || random.chance(0.5) ? random.pick(places) : undefined;
    write(friend, [0, ...random.sample(others, random.int(0, 1))], place, 'ALL_FRIENDS');
  });
  await buffer.flush();
  return counts;
}
