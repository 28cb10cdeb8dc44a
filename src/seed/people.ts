/**
 * Who the people of the demo graph are: names, birthdays, home towns, partners. These are the
 * facts other parts of the seeder need (a story says "her profile picture", partners are friends);
 * the full profile is written from them by `profile.ts`.
 */
import { CITIES } from './places.js';
import { FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES } from './names.js';
import type { Random } from './random.js';
import { COUPLE_STATUSES, SINGLE_STATUSES } from './phrases.js';
import { DAY, YEAR } from './durations.js';

export type Gender = 'male' | 'female';

export interface Person {
  gender: Gender;
  firstName: string;
  middleName?: string;
  lastName: string;
  name: string;
  birthYear: number;
  birthMonth: number;
  birthDay: number;
  /** Completed years at `now`. */
  age: number;
  /** Indexes into `CITIES`. */
  hometown: number;
  location: number;
  /** When the account was made (unix seconds): before any of its activity. */
  joinedTime: number;
  /** When the profile was last edited (unix seconds). */
  profileTime: number;
  /** Index of the partner among the people, when the partner is a user too. */
  partner?: number;
  relationshipStatus: string;
}

const MIN_AGE = 15;
export const MAX_AGE = 70;

/** Accounts are older than the six months of posts, so nobody posts before joining. */
const MIN_ACCOUNT_AGE = 200 * DAY;
const MAX_ACCOUNT_AGE = 9 * YEAR;

/** The demo user: an invented person, not anyone real. */
const DEMO_PERSON = { gender: 'female', firstName: 'Ilse', middleName: 'June', lastName: 'Marwood', age: 34 } as const;

/** Ages chosen so that every `age_range` bucket (13–17, 18–20, 21+) has people in it. */
function pickAge(random: Random): number {
  const bucket = random.weighted<readonly [number, number]>([
    [[MIN_AGE, 17], 10],
    [[18, 20], 12],
    [[21, 35], 45],
    [[36, MAX_AGE], 33],
  ]);
  return random.int(bucket[0], bucket[1]);
}

/** Cities are picked with North American ones more often, so `en_US` is the common locale. */
function pickCity(random: Random): number {
  return random.weighted(CITIES.map((city, index) => [index, city.locale === 'en_US' ? 3 : 1] as const));
}

function birthDateFor(random: Random, age: number, now: number): { year: number; month: number; day: number } {
  const today = new Date(now * 1000);
  // A day of the year before today's birthday-anniversary keeps the completed age equal to `age`.
  const daysBack = random.int(1, 364);
  const date = new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth(), today.getUTCDate()) - daysBack * DAY * 1000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function completedAge(birth: { year: number; month: number; day: number }, now: number): number {
  const today = new Date(now * 1000);
  const hadBirthday =
    today.getUTCMonth() + 1 > birth.month || (today.getUTCMonth() + 1 === birth.month && today.getUTCDate() >= birth.day);
  return today.getUTCFullYear() - birth.year - (hadBirthday ? 0 : 1);
}

function planPerson(random: Random, now: number, isDemo: boolean): Person {
  const gender: Gender = isDemo ? DEMO_PERSON.gender : random.chance(0.5) ? 'female' : 'male';
  const firstName = isDemo ? DEMO_PERSON.firstName : random.pick(gender === 'female' ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
  const lastName = isDemo ? DEMO_PERSON.lastName : random.pick(LAST_NAMES);
  const middleName = isDemo
    ? DEMO_PERSON.middleName
    : random.chance(0.15)
      ? random.pick(gender === 'female' ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES)
      : undefined;
  const birth = birthDateFor(random, isDemo ? DEMO_PERSON.age : pickAge(random), now);
  const hometown = pickCity(random);
  const location = random.chance(0.6) ? hometown : pickCity(random);
  const joinedTime = now - random.int(MIN_ACCOUNT_AGE, MAX_ACCOUNT_AGE);
  const person: Person = {
    gender,
    firstName,
    lastName,
    name: `${firstName} ${lastName}`,
    birthYear: birth.year,
    birthMonth: birth.month,
    birthDay: birth.day,
    age: completedAge(birth, now),
    hometown,
    location,
    joinedTime,
    profileTime: Math.max(joinedTime, now - random.int(DAY, 120 * DAY)),
    relationshipStatus: random.pick(SINGLE_STATUSES),
  };
  if (middleName) person.middleName = middleName;
  return person;
}

/**
 * Plans `count` people, the first being the demo user. About a third of the adults are paired
 * with another user (the demo user always is, so her profile shows `significant_other`).
 */
export function planPeople(random: Random, count: number, now: number): Person[] {
  const people: Person[] = [];
  for (let i = 0; i < count; i++) people.push(planPerson(random, now, i === 0));

  const adults: number[] = [];
  for (let i = 1; i < count; i++) if ((people[i] as Person).age >= 18) adults.push(i);
  random.shuffle(adults);
  const coupled = adults.slice(0, Math.floor(adults.length * 0.35));
  if (count > 1 && adults.length > 0) coupled.unshift(0);
  for (let i = 0; i + 1 < coupled.length; i += 2) {
    const a = people[coupled[i] as number] as Person;
    const b = people[coupled[i + 1] as number] as Person;
    a.partner = coupled[i + 1];
    b.partner = coupled[i];
    a.relationshipStatus = b.relationshipStatus = random.pick(COUPLE_STATUSES);
  }
  return people;
}

/**
 * Plans the extra people who exist to like things: enough of them that a popular post can have
 * a few hundred likes even in a small demo graph.
 */
export function planLikers(random: Random, count: number, now: number): Person[] {
  const likers: Person[] = [];
  for (let i = 0; i < count; i++) likers.push(planPerson(random, now, false));
  return likers;
}

export function possessive(person: Person): string {
  return person.gender === 'female' ? 'her' : 'his';
}
