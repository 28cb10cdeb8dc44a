import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { envDb, envValue } from '../config.js';
import { chooseMediaDir, defaultMediaDir } from '../media/media-folder.js';
import { MediaFolderError, readOwner } from '../media/media-owner.js';
import { ownMedia, removeOwnMedia, type OwnMedia } from '../media/media-release.js';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import { parseCommandArgs, UsageError } from './args.js';
import { demoSeedOf, SEED_OPTIONS, seedAndReport } from './seed.js';

export const reseedHelp = `Usage: loom reseed [--db PATH] [--media-dir DIR] [--users N] [--seed S] [--now T]
                   [--profile full|lean] [--friends N] [--posts N] [--likes N] [--yes]

Starts over: removes the SQLite database (with its -wal and -shm files) and its
media folder, then seeds a new demo graph as "loom seed" does (and prints the
new demo app's secret). Stop the server first. Asks for confirmation unless --yes
is given; without a terminal to ask on, --yes is required. A --db that is a folder,
or a file that is not a SQLite database, is refused and left alone.

Only media that is provably the database's own is removed: a folder whose
owner.json names another database is refused, one without an owner is left
alone, and of a shared folder the database adopted only its own files go.

A PostgreSQL database is not removed by Loom: drop its schema yourself
(DROP SCHEMA name CASCADE), then run "loom seed".

Options:
  --db PATH        SQLite file to start over (default: $LOOM_DB or ./loom.db)
  --media-dir DIR  its media folder (default: $LOOM_MEDIA_DIR, else the one the
                   database uses, PATH-media beside it for a new one)
  --users N, --seed S, --now T, --profile P, --friends N, --posts N, --likes N
                   the new graph, as for "loom seed"
  --yes            do not ask
  -h, --help       show this help
`;

export async function reseedCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...SEED_OPTIONS, 'media-dir': { type: 'string' }, yes: { type: 'boolean' } });
  if (values.help) return void process.stdout.write(reseedHelp);
  const db = values.db ?? envDb();
  if (/^postgres(ql)?:\/\//i.test(db)) {
    throw new UsageError(`reseed removes SQLite files only; drop the schema of ${redactPassword(db)} yourself, then run "loom seed"`);
  }
  const demo = demoSeedOf(values);
  const problem = notSqliteFile(db);
  if (problem) throw new UsageError(`${db} ${problem}; reseed removes SQLite databases only`, { help: false });
  const { media, leftAlone } = await mediaToRemove(db, values['media-dir'] ?? envValue('LOOM_MEDIA_DIR'));
  const doomed = [db, `${db}-wal`, `${db}-shm`].filter((path) => existsSync(path));
  const shown = [...doomed, ...(media ? [media.whole ? media.folder : `${media.files.length} files of ${media.folder}`] : [])];
  if (shown.length > 0 && values.yes !== true && !(await confirmed(`Remove ${shown.join(', ')} and seed a new demo graph? [y/N] `))) {
    throw new UsageError(process.stdin.isTTY ? 'nothing was removed' : 'give --yes to start over without being asked', { help: false });
  }
  if (media) await removeOwnMedia(media);
  for (const path of doomed) rmSync(path, { force: true });
  if (leftAlone) process.stderr.write(`${leftAlone}\n`);
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

/** The database's own media, found before anything is removed, or why a folder there is left as it is. */
async function mediaToRemove(db: string, given: string | undefined): Promise<{ media?: OwnMedia; leftAlone?: string }> {
  if (!existsSync(db)) {
    const folder = given === undefined ? defaultMediaDir(db) : resolve(given);
    const owner = await readOwner(folder).catch(() => undefined);
    return owner ? { leftAlone: `Left ${folder} as it is: it belongs to ${owner.database} (database id ${owner.databaseId}), and there is no database at ${db} to prove it is this one's` } : {};
  }
  const store = openStore(db);
  try {
    const folder = await chooseMediaDir(store, db, given);
    const media = await ownMedia(store, db, folder);
    if (media || !existsSync(folder)) return media ? { media } : {};
    return { leftAlone: `Left ${folder} as it is: nothing in it says it is ${db}'s` };
  } catch (error) {
    if (error instanceof MediaFolderError) throw new UsageError(`${error.message}; nothing was removed`, { help: false });
    throw error;
  } finally {
    await store.close();
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
