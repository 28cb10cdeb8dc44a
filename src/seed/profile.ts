/**
 * Writes a person's stored user fields (the `data` of a user object) in the shapes the user
 * schema reads: `{id, name}` references to pages, `MM/DD/YYYY` birthdays, lists of experiences.
 */
import type { PageCatalog, PageRef } from './page-catalog.js';
import type { Person } from './people.js';
import { CITIES } from './places.js';
import { ABOUTS, BIOS, DEVICES, POLITICAL_VIEWS, QUOTES, RELIGIONS } from './phrases.js';
import type { Random } from './random.js';

/** Hands out `first.last@example.com`, numbered when the name is taken. */
export class EmailBook {
  private readonly taken = new Map<string, number>();

  assign(firstName: string, lastName: string): string {
    const local = `${asciiLower(firstName)}.${asciiLower(lastName)}`;
    const seen = this.taken.get(local) ?? 0;
    this.taken.set(local, seen + 1);
    return seen === 0 ? `${local}@example.com` : `${local}${seen + 1}@example.com`;
  }
}

function asciiLower(text: string): string {
  return text
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const USD = { user_currency: 'USD', currency_offset: 100, usd_exchange: 1, usd_exchange_inverse: 1 };

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** Up to `most` distinct references, none at all on `noneChance`. */
function someOf(random: Random, refs: readonly PageRef[], most: number, noneChance: number): PageRef[] {
  if (random.chance(noneChance)) return [];
  return random.sample(refs, random.int(1, most)).map(copyRef);
}

function copyRef(ref: PageRef): PageRef {
  return { id: ref.id, name: ref.name };
}

function education(random: Random, person: Person, catalog: PageCatalog, complete: boolean): unknown[] {
  const entries: unknown[] = [
    {
      school: copyRef(random.pick(catalog.highSchools)),
      type: 'High School',
      year: copyRef(catalog.year(person.birthYear + 18)),
    },
  ];
  if (person.age < 19 || !(complete || random.chance(0.65))) return entries;
  entries.push({
    school: copyRef(random.pick(catalog.colleges)),
    type: 'College',
    year: copyRef(catalog.year(person.birthYear + 22)),
    concentration: random.sample(catalog.concentrations, random.int(1, 2)).map(copyRef),
  });
  if (person.age < 24 || !(complete || random.chance(0.25))) return entries;
  entries.push({
    school: copyRef(random.pick(catalog.graduateSchools)),
    type: 'Graduate School',
    year: copyRef(catalog.year(person.birthYear + random.int(24, 30))),
    concentration: [copyRef(random.pick(catalog.concentrations))],
  });
  return entries;
}

/** Jobs one after another from the first working year; the newest comes first, as profiles list them. */
function work(random: Random, person: Person, catalog: PageCatalog, now: number, complete: boolean): unknown[] {
  if (person.age < 18) return [];
  const jobCount = complete ? 2 : random.weighted([[0, 15], [1, 40], [2, 30], [3, 15]] as const);
  const today = new Date(now * 1000);
  const nowMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  let month = Math.min(nowMonth, (person.birthYear + random.int(18, 24)) * 12 + random.int(0, 11));
  const jobs: unknown[] = [];
  for (let i = 0; i < jobCount && month <= nowMonth; i++) {
    const job: Record<string, unknown> = {
      employer: copyRef(random.pick(catalog.employers)),
      position: copyRef(random.pick(catalog.positions)),
      start_date: monthDate(month),
    };
    const endMonth = month + random.int(6, 72);
    // A job that would only end in the future is still going on.
    const isCurrent = endMonth >= nowMonth || (i === jobCount - 1 && (complete || random.chance(0.8)));
    if (!isCurrent) job.end_date = monthDate(endMonth);
    if (complete || random.chance(0.5)) job.location = copyRef(catalog.cities[person.location] as PageRef);
    jobs.push(job);
    month = endMonth + random.int(0, 6);
  }
  return jobs.reverse();
}

function monthDate(monthIndex: number): string {
  return `${Math.floor(monthIndex / 12)}-${twoDigits((monthIndex % 12) + 1)}-01`;
}

function interestedIn(random: Random, person: Person): string[] {
  const other = person.gender === 'female' ? 'male' : 'female';
  return random.weighted<string[]>([
    [[other], 80],
    [[person.gender], 10],
    [['female', 'male'], 10],
  ]);
}

/**
 * The full profile of a person of the social graph. With `complete` every optional field is
 * filled (the demo user's profile shows everything).
 */
export function fullProfile(
  random: Random,
  person: Person,
  catalog: PageCatalog,
  email: string,
  now: number,
  complete: boolean,
): Record<string, unknown> {
  const maybe = (probability: number): boolean => complete || random.chance(probability);
  const city = CITIES[person.location];
  if (!city) throw new Error(`unknown city #${person.location}`);
  const data: Record<string, unknown> = {
    name: person.name,
    first_name: person.firstName,
  };
  if (person.middleName) data.middle_name = person.middleName;
  Object.assign(data, {
    last_name: person.lastName,
    gender: person.gender,
    birthday: `${twoDigits(person.birthMonth)}/${twoDigits(person.birthDay)}/${person.birthYear}`,
    email,
    locale: city.locale,
    timezone: city.timezone,
    relationship_status: person.relationshipStatus,
    hometown: copyRef(catalog.cities[person.hometown] as PageRef),
    location: copyRef(catalog.cities[person.location] as PageRef),
    verified: maybe(0.92),
    third_party_id: random.alphanumeric(27),
    currency: { ...USD },
  });
  if (maybe(0.7)) data.about = random.pick(ABOUTS);
  if (maybe(0.6)) data.bio = random.pick(BIOS);
  if (maybe(0.3)) data.website = `https://${asciiLower(person.firstName)}${asciiLower(person.lastName)}.example.com`;
  if (maybe(0.3)) data.quotes = random.pick(QUOTES);
  if (maybe(0.4)) data.religion = random.pick(RELIGIONS);
  if (maybe(0.4)) data.political = random.pick(POLITICAL_VIEWS);
  if (maybe(0.7)) data.interested_in = interestedIn(random, person);
  data.education = education(random, person, catalog, complete);
  const jobs = work(random, person, catalog, now, complete);
  if (jobs.length > 0) data.work = jobs;
  const lists: Array<[string, PageRef[]]> = [
    ['languages', someOf(random, catalog.languages, 3, complete ? 0 : 0.2)],
    ['favorite_teams', someOf(random, catalog.teams, 3, complete ? 0 : 0.5)],
    ['favorite_athletes', someOf(random, catalog.athletes, 2, complete ? 0 : 0.6)],
    ['sports', someOf(random, catalog.sports, 2, complete ? 0 : 0.5)],
    ['inspirational_people', someOf(random, catalog.inspirationalPeople, 2, complete ? 0 : 0.7)],
  ];
  for (const [key, refs] of lists) if (refs.length > 0) data[key] = refs;
  if (maybe(0.8)) data.devices = random.pick(DEVICES).map((device) => ({ ...device }));
  return data;
}

/** The short profile of an extra person who is there to like things. */
export function likerProfile(random: Random, person: Person, email: string): Record<string, unknown> {
  const city = CITIES[person.location];
  if (!city) throw new Error(`unknown city #${person.location}`);
  return {
    name: person.name,
    first_name: person.firstName,
    last_name: person.lastName,
    gender: person.gender,
    email,
    locale: city.locale,
    timezone: city.timezone,
    verified: random.chance(0.9),
    third_party_id: random.alphanumeric(27),
    currency: { ...USD },
  };
}
