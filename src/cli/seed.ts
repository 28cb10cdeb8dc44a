import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_SEED, DEMO_USERS, envDb } from '../config.js';
import { seedGraph } from '../seed/demo-graph.js';
import { openStore, redactPassword } from '../store/open-store.js';
import { isEmptyStore } from '../store/records.js';
import type { Store } from '../store/store.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';
import { findDemo } from './demo.js';
import { createProgress } from './progress.js';

/** Claimed by the process that seeds, so processes starting at once on one database seed it once. */
const SEEDING_SETTING = 'demo.seeding';
/** Written last by the seed: the graph is complete once it is there. */
const DONE_SETTING = 'demo.user_id';
/** A process waiting for another one's seed gives up when the seed wrote no object for this long. */
const STALL_MS = 2 * 60_000;
const POLL_MS = 200;

export const seedHelp = `Usage: loom seed [--db PATH|URL] [--users N] [--seed S] [--now T]

Fills an empty database with a deterministic demo graph: N users with profiles,
friendships, posts over the six months before T, likes, comments, albums, photos
and liked pages, one demo app and a demo user. The same seed, user count and T
give the same graph on every run, SQLite or PostgreSQL: the same object ids, app
id, app-scoped user ids, post ids, times and password salts. Only the demo app's
secret (and the keys the server makes for itself) are random every time.

Options:
  --db PATH|URL SQLite file or postgres:// URL to fill (default: $LOOM_DB or ./loom.db)
  --users N     number of users (default: ${DEMO_USERS})
  --seed S      seed of the generator (default: ${DEMO_SEED})
  --now T       the graph's present, as unix seconds or an ISO 8601 date or time
                (e.g. 2026-01-31); default: the start of today (UTC)
  -h, --help    show this help
`;

export const SEED_OPTIONS = {
  db: { type: 'string' },
  users: { type: 'string' },
  seed: { type: 'string' },
  now: { type: 'string' },
} as const;

export async function seedCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, SEED_OPTIONS);
  if (values.help) return void process.stdout.write(seedHelp);
  await seedAndReport(values.db ?? envDb(), demoSeedOf(values));
}

/** The graph that `--users`, `--seed` and `--now` ask for. */
export function demoSeedOf(values: { users?: string; seed?: string; now?: string }): DemoSeed {
  return {
    users: positiveInteger('users', values.users, DEMO_USERS),
    seed: values.seed ?? DEMO_SEED,
    now: values.now === undefined ? startOfToday() : graphNow(values.now),
  };
}

/** Seeds an empty database and says what it holds, with the demo app's secret, shown this once. */
export async function seedAndReport(db: string, demo: DemoSeed): Promise<void> {
  const shown = redactPassword(db);
  const store = openStore(db);
  try {
    const outcome = await seedDemo(store, shown, demo);
    if (outcome === 'not empty') throw new UsageError(`${shown} already holds a graph; seed into a new database, or start over with "loom reseed"`);
    if (outcome === 'seeded elsewhere') return void process.stdout.write(`Another process seeded ${shown} at the same time\n`);
    const app = (await findDemo(store))?.app;
    process.stdout.write(`Seeded ${shown}: ${formatCounts(outcome)}\n`);
    if (app) {
      process.stdout.write(
        `Demo app "${app.name}": id ${app.id}, secret ${app.secret}\n` +
          `The secret is shown only now; "loom app reset-secret ${app.id}" prints a new one.\n`,
      );
    }
  } finally {
    await store.close();
  }
}

/**
 * Seeds the demo graph into an empty database, once however many processes try at the same
 * time: only the one whose claim the store keeps seeds, the others wait until its seed is
 * complete. Answers the counts of this process's seed, 'seeded elsewhere' when it waited for
 * another's, or 'not empty' when the database held a graph already.
 */
export interface DemoSeed {
  users: number;
  seed: string;
  /** Unix seconds: the graph's present. */
  now: number;
}

/** The default present of a seeded graph: the start of the current day, UTC. */
export function startOfToday(): number {
  return Math.floor(Date.now() / 86_400_000) * 86_400;
}

/** `--now` as unix seconds: a whole number of seconds, or an ISO 8601 date or date and time. */
export function graphNow(text: string): number {
  const seconds = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) / 1000 : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new UsageError(`--now must be unix seconds or an ISO 8601 date such as 2026-01-31, not "${text}"`);
  }
  return seconds;
}

export async function seedDemo(store: Store, shown: string, demo: DemoSeed): Promise<Record<string, number> | 'seeded elsewhere' | 'not empty'> {
  const claim = randomBytes(16).toString('hex');
  if ((await isEmptyStore(store)) && (await store.initSetting(SEEDING_SETTING, claim)) === claim) {
    process.stderr.write(`Seeding the demo graph into ${shown}…\n`);
    return seedInto(store, demo);
  }
  if ((await store.getSetting(SEEDING_SETTING)) === undefined || (await store.getSetting(DONE_SETTING)) !== undefined) return 'not empty';
  process.stderr.write(`Another process is seeding ${shown}; waiting for it to finish…\n`);
  let lastId = await lastObjectId(store);
  let progressAt = Date.now();
  while ((await store.getSetting(DONE_SETTING)) === undefined) {
    const id = await lastObjectId(store);
    if (id !== lastId) [lastId, progressAt] = [id, Date.now()];
    if (Date.now() - progressAt > STALL_MS) {
      throw new UsageError(
        `another process began seeding ${shown} but wrote nothing for ${STALL_MS / 60_000} minutes; if it was stopped, seed into a new database`,
      );
    }
    await sleep(POLL_MS);
  }
  return 'seeded elsewhere';
}

async function lastObjectId(store: Store): Promise<number> {
  const [sequence] = await store.scanRecords('idSequence', undefined, 1);
  return sequence?.record === 'idSequence' ? sequence.last : 0;
}

/** Seeds with a progress bar (shown only when the work takes more than a second). */
async function seedInto(store: Store, { users, seed, now }: DemoSeed): Promise<Record<string, number>> {
  const progress = createProgress('Seeding the demo graph', process.stderr);
  const result = await seedGraph(store, { users, seed, now, onProgress: (done, total) => progress.update(done, total) });
  progress.finish();
  return result.counts;
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
}
