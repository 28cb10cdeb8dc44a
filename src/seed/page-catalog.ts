/**
 * The pages every profile points at: cities, schools, years, employers, job titles, languages,
 * sports, teams, people, and the pages people like. They are created once, before any user, so
 * that profiles can carry their ids (`{id: '<page id>', name}`).
 */
import type { ObjectId } from '../ids.js';
import { CONCENTRATIONS, COLLEGES, EMPLOYERS, GRADUATE_SCHOOLS, HIGH_SCHOOLS, POSITIONS } from './institutions.js';
import {
  FAVORITE_ATHLETES,
  FAVORITE_TEAMS,
  INSPIRATIONAL_PEOPLE,
  LANGUAGES,
  LIKEABLE_PAGES,
  SPORTS,
} from './interests.js';
import type { OpBuffer } from './op-buffer.js';
import { CITIES, cityLabel } from './places.js';
import type { Random } from './random.js';

/** How a profile refers to a page. */
export interface PageRef {
  id: string;
  name: string;
}

export interface PageCatalog {
  /** In the order of `CITIES`. */
  cities: PageRef[];
  highSchools: PageRef[];
  colleges: PageRef[];
  graduateSchools: PageRef[];
  concentrations: PageRef[];
  employers: PageRef[];
  positions: PageRef[];
  languages: PageRef[];
  sports: PageRef[];
  teams: PageRef[];
  athletes: PageRef[];
  inspirationalPeople: PageRef[];
  /** Pages users like (`liked_pages` / `fans`). */
  likeable: ObjectId[];
  /** The page of a graduation year. */
  year(year: number): PageRef;
  /** Every page created. */
  size: number;
}

interface PageSpec {
  name: string;
  category: string;
  about: string;
  location?: { city: string; country: string };
  /** Told the id once the page exists; a page listed twice (a team that is also liked) has two. */
  receivers: Array<(id: ObjectId) => void>;
}

const YEAR_PAGES_AFTER_NOW = 8;

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Creates the pages. Graduation years run from the oldest possible high-school class of a user
 * aged `maxAge` to a few years ahead (young users and students list expected years).
 */
export async function createPageCatalog(
  buffer: OpBuffer,
  random: Random,
  now: number,
  maxAge: number,
): Promise<PageCatalog> {
  const specs = new Map<string, PageSpec>();
  const declare = (name: string, category: string, about: string): PageSpec => {
    let spec = specs.get(name);
    if (!spec) {
      spec = { name, category, about, receivers: [] };
      specs.set(name, spec);
    }
    return spec;
  };

  const group = (names: readonly string[], category: string, about: (name: string) => string): PageRef[] => {
    const refs: PageRef[] = [];
    for (const name of names) {
      const ref: PageRef = { id: '', name };
      refs.push(ref);
      declare(name, category, about(name)).receivers.push((id) => (ref.id = String(id)));
    }
    return refs;
  };
  const cities = CITIES.map((city) => {
    const ref: PageRef = { id: '', name: cityLabel(city) };
    const spec = declare(ref.name, 'City', `${city.name} is a city in ${city.region}, ${city.country}.`);
    spec.location = { city: city.name, country: city.country };
    spec.receivers.push((id) => (ref.id = String(id)));
    return ref;
  });
  const nowYear = new Date(now * 1000).getUTCFullYear();
  const firstYear = nowYear - maxAge - 1 + 18;
  const years = group(
    Array.from({ length: nowYear + YEAR_PAGES_AFTER_NOW - firstYear + 1 }, (_, i) => String(firstYear + i)),
    'Year',
    (name) => `The year ${name}.`,
  );
  const catalog: PageCatalog = {
    cities,
    highSchools: group(HIGH_SCHOOLS, 'High School', (name) => `${name}, a public high school.`),
    colleges: group(COLLEGES, 'College & University', (name) => `${name}, founded long ago.`),
    graduateSchools: group(GRADUATE_SCHOOLS, 'Graduate School', (name) => `${name}, a graduate school.`),
    concentrations: group(CONCENTRATIONS, 'Field of Study', (name) => `The study of ${name}.`),
    employers: group(EMPLOYERS, 'Company', (name) => `${name} is hiring.`),
    positions: group(POSITIONS, 'Job Title', (name) => `People who work as ${name}.`),
    languages: group(LANGUAGES, 'Language', (name) => `The ${name} language.`),
    sports: group(SPORTS, 'Sport', (name) => `${name} for everyone.`),
    teams: group(FAVORITE_TEAMS, 'Sports Team', (name) => `Official page of ${name}.`),
    athletes: group(FAVORITE_ATHLETES, 'Athlete', (name) => `${name}, athlete.`),
    inspirationalPeople: group(INSPIRATIONAL_PEOPLE, 'Public Figure', (name) => `Remembering ${name}.`),
    likeable: [],
    year(year: number): PageRef {
      const ref = years[year - firstYear];
      if (!ref) throw new Error(`no page for the year ${year}`);
      return ref;
    },
    size: 0,
  };
  for (const page of LIKEABLE_PAGES) {
    declare(page.name, page.category, page.about).receivers.push((id) => catalog.likeable.push(id));
  }

  const yearSeconds = 365 * 86400;
  for (const spec of specs.values()) {
    const createdTime = now - random.int(yearSeconds, 10 * yearSeconds);
    const data: Record<string, unknown> = {
      name: spec.name,
      category: spec.category,
      about: spec.about,
      website: `https://www.example.com/${slug(spec.name)}`,
    };
    if (spec.location) data.location = spec.location;
    buffer.create({ type: 'page', owner: null, createdTime, updatedTime: createdTime, data }, (id) => {
      for (const receive of spec.receivers) receive(id);
    });
    await buffer.endUnit();
  }
  await buffer.flush();
  catalog.size = specs.size;
  return catalog;
}
