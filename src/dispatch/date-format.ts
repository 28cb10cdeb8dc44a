import { Slices } from '../engine/request/turns.js';
import { PARTS_IN_ONE_GO, partsUpTo } from './json-text.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const two = (n: number) => String(n).padStart(2, '0');

/** What each PHP `date()` letter Loom supports writes for a moment, in UTC (the zone of every Graph time). */
const LETTERS: Record<string, (date: Date) => string> = {
  d: (date) => two(date.getUTCDate()),
  D: (date) => WEEKDAYS[date.getUTCDay()]!.slice(0, 3),
  j: (date) => String(date.getUTCDate()),
  S: (date) => ordinalSuffix(date.getUTCDate()),
  l: (date) => WEEKDAYS[date.getUTCDay()]!,
  N: (date) => String(date.getUTCDay() || 7),
  w: (date) => String(date.getUTCDay()),
  F: (date) => MONTHS[date.getUTCMonth()]!,
  M: (date) => MONTHS[date.getUTCMonth()]!.slice(0, 3),
  m: (date) => two(date.getUTCMonth() + 1),
  n: (date) => String(date.getUTCMonth() + 1),
  Y: (date) => String(date.getUTCFullYear()),
  y: (date) => two(date.getUTCFullYear() % 100),
  a: (date) => (date.getUTCHours() < 12 ? 'am' : 'pm'),
  A: (date) => (date.getUTCHours() < 12 ? 'AM' : 'PM'),
  g: (date) => String(date.getUTCHours() % 12 || 12),
  G: (date) => String(date.getUTCHours()),
  h: (date) => two(date.getUTCHours() % 12 || 12),
  H: (date) => two(date.getUTCHours()),
  i: (date) => two(date.getUTCMinutes()),
  s: (date) => two(date.getUTCSeconds()),
  U: (date) => String(Math.floor(date.getTime() / 1000)),
  e: () => 'UTC',
  T: () => 'UTC',
  O: () => '+0000',
  P: () => '+00:00',
  Z: () => '0',
  c: (date) => `${date.toISOString().slice(0, 19)}+00:00`,
  r: (date) => `${LETTERS.D!(date)}, ${LETTERS.d!(date)} ${LETTERS.M!(date)} ${LETTERS.Y!(date)} ${LETTERS.H!(date)}:${LETTERS.i!(date)}:${LETTERS.s!(date)} +0000`,
};

function ordinalSuffix(day: number): string {
  if (day >= 11 && day <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

/** Formats unix seconds with a PHP `date()` pattern; `\x` writes x as it is, unknown letters stand for themselves. */
function formatDate(unixSeconds: number, pattern: string): string {
  const date = new Date(unixSeconds * 1000);
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const letter = pattern[i]!;
    if (letter === '\\' && i + 1 < pattern.length) {
      out += pattern[++i];
      continue;
    }
    const write = LETTERS[letter];
    out += write ? write(date) : letter;
  }
  return out;
}

/** A time as the engine writes it: 2015-07-09T14:03:11+0000. */
const GRAPH_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/;

/**
 * Rewrites every time of an answer (the values of `*_time` keys in Graph time form) with the
 * pattern: `U` gives numbers, as the real service does, any other pattern gives strings. A large
 * answer is rewritten a part at a time, pausing between parts as its JSON text does.
 */
export function reformatTimes(value: unknown, pattern: string): Promise<unknown> {
  return reformatInSlices(value, pattern, new Slices());
}

async function reformatInSlices(value: unknown, pattern: string, slices: Slices): Promise<unknown> {
  if (value === null || typeof value !== 'object' || partsUpTo(value, PARTS_IN_ONE_GO) < PARTS_IN_ONE_GO) return reformatAll(value, pattern);
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      items.push(await reformatInSlices(item, pattern, slices));
      await slices.pace();
    }
    return items;
  }
  const entries: Array<[string, unknown]> = [];
  for (const [key, inner] of Object.entries(value)) {
    entries.push([key, isGraphTime(key, inner) ? reformatTime(inner, pattern) : await reformatInSlices(inner, pattern, slices)]);
    await slices.pace();
  }
  return Object.fromEntries(entries);
}

function reformatAll(value: unknown, pattern: string): unknown {
  if (Array.isArray(value)) return value.map((item) => reformatAll(item, pattern));
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines keys as data, so a stored `__proto__` key stays a plain key.
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, isGraphTime(key, inner) ? reformatTime(inner, pattern) : reformatAll(inner, pattern)]),
  );
}

function isGraphTime(key: string, value: unknown): value is string {
  return key.endsWith('_time') && typeof value === 'string' && GRAPH_TIME.test(value);
}

function reformatTime(time: string, pattern: string): number | string {
  const seconds = Date.parse(`${time.slice(0, 19)}Z`) / 1000;
  return pattern === 'U' ? seconds : formatDate(seconds, pattern);
}
