/**
 * Places and place topics, so that `GET /search?type=place` finds cafés, parks and museums
 * around each city (pages with a street address and a position) and `type=placetopic` finds
 * the topics they are filed under. Written after the rest of the graph, from its own random
 * stream, so the objects and ids seeded before stay exactly as they were.
 */
import type { ObjectId } from '../ids.js';
import type { OpBuffer } from './op-buffer.js';
import { CITIES } from './places.js';
import type { Random } from './random.js';

/** Centres of the cities of places.ts, in degrees (latitude, longitude), in the same order. */
const CITY_CENTRES: ReadonlyArray<readonly [number, number]> = [
  [45.5152, -122.6784], [47.6062, -122.3321], [38.5816, -121.4944], [32.7157, -117.1611], [39.7392, -104.9903],
  [32.2226, -110.9747], [30.2672, -97.7431], [43.0731, -89.4012], [44.9778, -93.265], [38.627, -90.1994],
  [36.1627, -86.7816], [33.749, -84.388], [40.4406, -79.9959], [39.2904, -76.6122], [41.824, -71.4128],
  [44.4759, -73.2121], [43.6532, -79.3832], [44.6488, -63.5752], [53.8008, -1.5491], [51.4545, -2.5879],
  [55.8642, -4.2518], [51.8985, -8.4756], [38.7223, -9.1393], [45.764, 4.8357], [47.2184, -1.5536],
  [51.3397, 12.3731], [47.999, 7.8421], [39.4699, -0.3763], [52.0907, 5.1214], [-37.8136, 144.9631],
];

interface Topic {
  name: string;
  plural: string;
  children?: ReadonlyArray<{ name: string; plural: string; words: readonly string[] }>;
}

/** The topic tree; the words name places of each narrower topic. */
const TOPICS: readonly Topic[] = [
  {
    name: 'Food & Beverage', plural: 'Food & Beverage',
    children: [
      { name: 'Coffee Shop', plural: 'Coffee Shops', words: ['Coffee', 'Espresso Bar', 'Roasters'] },
      { name: 'Bakery', plural: 'Bakeries', words: ['Bakery', 'Bread Co.', 'Patisserie'] },
      { name: 'Restaurant', plural: 'Restaurants', words: ['Kitchen', 'Bistro', 'Diner'] },
    ],
  },
  {
    name: 'Arts & Entertainment', plural: 'Arts & Entertainment',
    children: [
      { name: 'Museum', plural: 'Museums', words: ['Museum', 'Gallery'] },
      { name: 'Movie Theater', plural: 'Movie Theaters', words: ['Cinema', 'Picture House'] },
    ],
  },
  {
    name: 'Outdoors', plural: 'Outdoors',
    children: [{ name: 'Park', plural: 'Parks', words: ['Park', 'Gardens', 'Green'] }],
  },
];

const PLACE_NAMES = ['Harbour', 'Lantern', 'Juniper', 'Copper', 'Maple', 'Foundry', 'Meridian', 'Willow', 'Granite', 'Old Mill'];
const STREETS = ['Main Street', 'Market Street', 'Mill Road', 'Station Road', 'Park Avenue', 'River Walk', 'High Street'];
const PLACES_PER_CITY = 4;
/** How far from the city's centre a place may lie, in degrees (about 3 km). */
const SPREAD = 0.03;

export type PlaceCounts = Record<'placeTopics' | 'places', number>;

export async function writePlaces(random: Random, buffer: OpBuffer, now: number): Promise<PlaceCounts> {
  const created = now - 5 * 365 * 86400;
  const topicIds = new Map<string, ObjectId>();
  for (const topic of TOPICS) {
    const data = { name: topic.name, plural_name: topic.plural, top_subtopic_names: (topic.children ?? []).map((child) => child.name) };
    buffer.create({ type: 'placetopic', owner: null, createdTime: created, updatedTime: created, data }, (id) => topicIds.set(topic.name, id));
  }
  await buffer.flush();
  const leaves = TOPICS.flatMap((topic) => (topic.children ?? []).map((child) => ({ ...child, parent: topicIds.get(topic.name)! })));
  for (const leaf of leaves) {
    const data = { name: leaf.name, plural_name: leaf.plural, parent_ids: [String(leaf.parent)] };
    buffer.create({ type: 'placetopic', owner: null, createdTime: created, updatedTime: created, data });
  }
  await buffer.flush();

  let places = 0;
  for (const [index, city] of CITIES.entries()) {
    const [latitude, longitude] = CITY_CENTRES[index]!;
    for (let n = 0; n < PLACES_PER_CITY; n++) {
      const leaf = random.pick(leaves);
      const name = `${random.pick(PLACE_NAMES)} ${random.pick(leaf.words)}`;
      const createdTime = now - random.int(30 * 86400, 8 * 365 * 86400);
      const data = {
        name,
        category: leaf.name,
        about: `${name}, a ${leaf.name.toLowerCase()} in ${city.name}.`,
        location: {
          street: `${random.int(1, 400)} ${random.pick(STREETS)}`,
          city: city.name,
          country: city.country,
          latitude: round(latitude + (random.next() * 2 - 1) * SPREAD),
          longitude: round(longitude + (random.next() * 2 - 1) * SPREAD),
        },
      };
      buffer.create({ type: 'page', owner: null, createdTime, updatedTime: createdTime, data });
      places += 1;
      await buffer.endUnit();
    }
  }
  await buffer.flush();
  return { placeTopics: TOPICS.length + leaves.length, places };
}

/** Six decimals: about 10 cm, as precise as the service showed positions. */
function round(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}
