/**
 * The demo graph seeded once and copied into every test database that asks for it: seeding takes
 * a large part of a second, a copy of the file a few milliseconds. Templates live in a folder of
 * the OS temp dir that only this user may use, one file per seed, store schema and seeding code,
 * and are put in place by renaming a finished file, so processes starting at once never copy a
 * half-written one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDemo, type DemoSeed } from '../seed/seed-once.js';
import { latestVersion } from '../store/sqlite/migrations.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

/** Templates untouched this long go: the demo graph's present is the start of each day. */
const STALE_MS = 2 * 24 * 60 * 60 * 1000;
/** The seeding code, whose every change makes another graph: part of a template's key. */
const SEED_CODE = fileURLToPath(new URL('../seed/', import.meta.url));

/**
 * Fills `database` (a file that does not exist yet) with a copy of the demo graph `demo`, seeding
 * the template first when there is none. Answers false, having done nothing, where no private
 * template folder can be had; the caller seeds then.
 */
export async function copyDemoGraph(database: string, demo: DemoSeed): Promise<boolean> {
  const folder = templateFolder();
  if (folder === undefined) return false;
  const template = join(folder, `demo-${templateKey(demo)}.db`);
  if (!existsSync(template)) {
    pruneStale(folder);
    await seedTemplate(template, demo);
  }
  copyFileSync(template, database);
  return true;
}

/** A folder of the temp dir that is this user's alone, or undefined when that cannot be ensured. */
function templateFolder(): string | undefined {
  const uid = process.getuid?.();
  const folder = join(tmpdir(), `loom-templates-${uid ?? 'user'}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    // Another user's folder, or one others may write in, could hold a graph they made.
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

function templateKey(demo: DemoSeed): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ users: demo.users, seed: demo.seed, now: demo.now, profile: demo.profile ?? null, schema: latestVersion }));
  for (const name of readdirSync(SEED_CODE).sort()) {
    const stat = statSync(join(SEED_CODE, name));
    hash.update(`${name} ${stat.size} ${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 24);
}

/** Seeds under a name of its own, then renames the finished file into place. */
async function seedTemplate(template: string, demo: DemoSeed): Promise<void> {
  const temporary = `${template}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const store = openSqliteStore(temporary);
    try {
      await seedDemo(store, 'a template of the demo graph', demo);
    } finally {
      // Closing checkpoints the write-ahead log into the file, so the file alone is the graph.
      await store.close();
    }
    renameSync(temporary, template);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true });
  }
}

function pruneStale(folder: string): void {
  const now = Date.now();
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
