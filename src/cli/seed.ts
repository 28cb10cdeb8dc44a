import { DEMO_SEED, DEMO_USERS, envDb } from '../config.js';
import { findDemo } from '../seed/demo-app.js';
import { LEAN_PROFILE } from '../seed/lean-graph.js';
import { seedDemo, startOfToday, type DemoSeed, type SeedProfile } from '../seed/seed-once.js';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import { parseCommandArgs, positiveInteger, UsageError, valueOptions } from './args.js';

/** Above this many users the lean profile is the default: the full one would take hours and tens of GB. */
const FULL_PROFILE_MAX_USERS = 10_000;

export const seedHelp = `Usage: loom seed [--db PATH|URL] [--users N] [--seed S] [--now T]
                 [--profile full|lean] [--friends N] [--posts N] [--likes N]

Fills an empty database with a deterministic demo graph, one demo app and a demo
user. The same seed, user count, profile and T give the same graph on every run,
SQLite or PostgreSQL: the same object ids, app id, app-scoped user ids, post ids,
times and password salts. Only the demo app's secret (and the keys the server
makes for itself) are random every time.

The full profile gives N users with profiles, friendships, posts over the six
months before T, likes, comments, albums, photos and liked pages. The lean profile,
for large graphs (a million users in minutes and a few GB), gives each user a name,
--friends friends, --posts public posts and --likes likes per post from the
author's friends, written in large transactions with the indexes built at the end.

Either profile ends by building the graph's search index, in one pass (a line says
how many objects it indexes), so the first "loom serve" on it starts at once.

Options:
  --db PATH|URL  SQLite file or postgres:// URL to fill (default: $LOOM_DB or ./loom.db)
  --users N      number of users (default: ${DEMO_USERS})
  --seed S       seed of the generator (default: ${DEMO_SEED})
  --now T        the graph's present, as unix seconds or an ISO 8601 date or time
                 (e.g. 2026-01-31); default: the start of today (UTC)
  --profile P    full or lean (default: full up to ${FULL_PROFILE_MAX_USERS.toLocaleString('en-US')} users, lean above)
  --friends N    lean profile: friends per user (default: ${LEAN_PROFILE.friends})
  --posts N      lean profile: posts per user (default: ${LEAN_PROFILE.posts})
  --likes N      lean profile: likes per post (default: ${LEAN_PROFILE.likes})
  -h, --help     show this help
`;

export const SEED_OPTIONS = {
  ...valueOptions('db', 'users', 'seed', 'now', 'profile', 'friends', 'posts', 'likes'),
} as const;

export async function seedCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, SEED_OPTIONS);
  if (values.help) return void process.stdout.write(seedHelp);
  await seedAndReport(values.db ?? envDb(), demoSeedOf(values));
}

/** The graph that `--users`, `--seed`, `--now` and the profile options ask for. */
export function demoSeedOf(values: {
  users?: string;
  seed?: string;
  now?: string;
  profile?: string;
  friends?: string;
  posts?: string;
  likes?: string;
}): DemoSeed {
  const users = positiveInteger('users', values.users, DEMO_USERS);
  return {
    users,
    seed: values.seed ?? DEMO_SEED,
    now: values.now === undefined ? startOfToday() : graphNow(values.now),
    profile: seedProfileOf(values, users),
  };
}

function seedProfileOf(values: { profile?: string; friends?: string; posts?: string; likes?: string }, users: number): SeedProfile {
  const kind = values.profile ?? (users > FULL_PROFILE_MAX_USERS ? 'lean' : 'full');
  if (kind !== 'full' && kind !== 'lean') throw new UsageError(`--profile must be full or lean, not ${kind}`);
  const density = [values.friends, values.posts, values.likes].some((value) => value !== undefined);
  if (kind === 'full' && density) throw new UsageError('--friends, --posts and --likes apply to the lean profile only');
  if (kind === 'full') return { kind };
  return {
    kind,
    friends: positiveInteger('friends', values.friends, LEAN_PROFILE.friends),
    posts: positiveInteger('posts', values.posts, LEAN_PROFILE.posts),
    likes: positiveInteger('likes', values.likes, LEAN_PROFILE.likes),
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

/** `--now` as unix seconds: a whole number of seconds, or an ISO 8601 date or date and time. */
function graphNow(text: string): number {
  const seconds = /^\d+$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) / 1000 : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new UsageError(`--now must be unix seconds or an ISO 8601 date such as 2026-01-31, not "${text}"`);
  }
  return seconds;
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
}
