/**
 * The classes people list with their schools (`education[].classes`, as the v2.0 profile carried
 * them: fb_graph2 user/me.json): pages of their own, written once every other object of the graph
 * is, so that the ids of the rest stay as they were, then added to the profiles written before.
 * The demo user lists classes with every school; other people with some.
 */
import type { ObjectId } from '../ids.js';
import { CLASSES } from './institutions.js';
import type { PageRef } from './page-catalog.js';
import type { Person } from './people.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import { YEAR } from './durations.js';

type SchoolType = keyof typeof CLASSES;

/** Writes the class pages and the classes of each profile's schools; returns how many pages. */
export async function writeClasses(random: Random, context: SeedContext, profiles: ReadonlyArray<Record<string, unknown>>): Promise<number> {
  const { buffer, people, userIds, now } = context;
  const pages = new Map<SchoolType, PageRef[]>();
  for (const [type, names] of Object.entries(CLASSES) as Array<[SchoolType, readonly string[]]>) {
    const refs = names.map((name) => ({ id: '', name }));
    pages.set(type, refs);
    for (const ref of refs) {
      const createdTime = now - random.int(YEAR, 10 * YEAR);
      const data = { name: ref.name, category: 'Education', about: `${ref.name}, a class people took at school.` };
      buffer.create({ type: 'page', owner: null, createdTime, updatedTime: createdTime, data }, (id: ObjectId) => (ref.id = String(id)));
    }
  }
  await buffer.flush();

  for (let index = 0; index < people.length; index++) {
    const education = profiles[index]?.education;
    if (!Array.isArray(education)) continue;
    let listed = false;
    const withClasses = (education as Array<Record<string, unknown>>).map((entry) => {
      const choices = pages.get(entry.type as SchoolType);
      if (choices === undefined || !(index === 0 || random.chance(0.4))) return entry;
      listed = true;
      return { ...entry, classes: random.sample(choices, random.int(1, 2)).map((ref) => ({ id: ref.id, name: ref.name })) };
    });
    // Only the education changes (a store merges it into the profile), as of the profile's own time.
    if (listed) buffer.update(userIds[index] as ObjectId, { education: withClasses }, (people[index] as Person).profileTime);
    await buffer.endUnit();
  }
  await buffer.flush();
  return [...pages.values()].reduce((sum, refs) => sum + refs.length, 0);
}
