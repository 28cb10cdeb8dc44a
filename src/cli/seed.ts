import { DEMO_SEED, DEMO_USERS, envDb } from '../config.js';
import { seedGraph } from '../seed/demo-graph.js';
import { openStore, redactPassword } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';
import { isEmpty } from './demo.js';
import { createProgress } from './progress.js';

export const seedHelp = `Usage: loom seed [--db PATH|URL] [--users N] [--seed S]

Fills an empty database with a deterministic demo graph: N users with profiles,
friendships, posts over the last six months, likes, comments, albums, photos and
liked pages, one demo app and a demo user. The same seed and user count give the
same graph.

Options:
  --db PATH|URL SQLite file or postgres:// URL to fill (default: $LOOM_DB or ./loom.db)
  --users N     number of users (default: ${DEMO_USERS})
  --seed S      seed of the generator (default: ${DEMO_SEED})
  -h, --help    show this help
`;

export async function seedCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    db: { type: 'string' },
    users: { type: 'string' },
    seed: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(seedHelp);
  const users = positiveInteger('users', values.users, DEMO_USERS);
  const db = values.db ?? envDb();
  const store = openStore(db);
  try {
    if (!(await isEmpty(store))) throw new UsageError(`${redactPassword(db)} already holds a graph; seed into a new database`);
    const counts = await seedInto(store, users, values.seed ?? DEMO_SEED);
    process.stdout.write(`Seeded ${redactPassword(db)}: ${formatCounts(counts)}\n`);
  } finally {
    await store.close();
  }
}

/** Seeds with a progress bar (shown only when the work takes more than a second). */
export async function seedInto(store: Store, users: number, seed: string): Promise<Record<string, number>> {
  const progress = createProgress('Seeding the demo graph', process.stderr);
  const now = Math.floor(Date.now() / 86_400_000) * 86_400;
  const result = await seedGraph(store, { users, seed, now, onProgress: (done, total) => progress.update(done, total) });
  progress.finish();
  return result.counts;
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
}
