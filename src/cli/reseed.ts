import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { envDb, envMediaDir } from '../config.js';
import { redactPassword } from '../store/redact-password.js';
import { parseCommandArgs, UsageError } from './args.js';
import { demoSeedOf, SEED_OPTIONS, seedAndReport } from './seed.js';

export const reseedHelp = `Usage: loom reseed [--db PATH] [--media-dir DIR] [--users N] [--seed S] [--now T]
                   [--profile full|lean] [--friends N] [--posts N] [--likes N] [--yes]

Starts over: removes the SQLite database (with its -wal and -shm files) and the
media directory, then seeds a new demo graph as "loom seed" does (and prints the
new demo app's secret). Stop the server first. Asks for confirmation unless --yes
is given; without a terminal to ask on, --yes is required. A --db that is a folder,
or a file that is not a SQLite database, is refused and left alone.

A PostgreSQL database is not removed by Loom: drop its schema yourself
(DROP SCHEMA name CASCADE), then run "loom seed".

Options:
  --db PATH        SQLite file to start over (default: $LOOM_DB or ./loom.db)
  --media-dir DIR  uploaded photos to remove (default: $LOOM_MEDIA_DIR or ./loom-media)
  --users N, --seed S, --now T, --profile P, --friends N, --posts N, --likes N
                   the new graph, as for "loom seed"
  --yes            do not ask
  -h, --help       show this help
`;

export async function reseedCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...SEED_OPTIONS, 'media-dir': { type: 'string' }, yes: { type: 'boolean' } });
  if (values.help) return void process.stdout.write(reseedHelp);
  const db = values.db ?? envDb();
  const mediaDir = values['media-dir'] ?? envMediaDir();
  if (/^postgres(ql)?:\/\//i.test(db)) {
    throw new UsageError(`reseed removes SQLite files only; drop the schema of ${redactPassword(db)} yourself, then run "loom seed"`);
  }
  const demo = demoSeedOf(values);
  const problem = notSqliteFile(db);
  if (problem) throw new UsageError(`${db} ${problem}; reseed removes SQLite databases only`, { help: false });
  const doomed = [db, `${db}-wal`, `${db}-shm`, mediaDir].filter((path) => existsSync(path));
  if (doomed.length > 0 && values.yes !== true && !(await confirmed(`Remove ${doomed.join(', ')} and seed a new demo graph? [y/N] `))) {
    throw new UsageError(process.stdin.isTTY ? 'nothing was removed' : 'give --yes to start over without being asked', { help: false });
  }
  for (const path of doomed) rmSync(path, { recursive: true, force: true });
  await seedAndReport(db, demo);
}

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\0';

/** Why `path` is not a SQLite database file that may be removed, or undefined when it is one (or nothing is there). */
function notSqliteFile(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (!statSync(path).isFile()) return 'is not a file';
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    // An empty file is what a database looks like before its first write.
    return read === 0 || head.toString('latin1') === SQLITE_HEADER ? undefined : 'is not a SQLite database';
  } finally {
    closeSync(fd);
  }
}

/** A yes from the person at the terminal; never one when there is no terminal to ask. */
async function confirmed(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}
