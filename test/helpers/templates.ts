/**
 * Seeded stores that many test files share, seeded once per test run and copied for each use.
 * scripts/run-tests.mjs names a folder of its own in LOOM_TEST_TEMPLATES: the first process to need
 * a template seeds it there (a SQLite file, or a PostgreSQL schema), the others wait for it, and
 * every use gets a copy in a scratch location of its own, so a test still changes only its own
 * data. Without that folder (a test file run by itself) every use is seeded afresh.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Store } from '../../src/store/store.js';
import { openLocation, postgresClient, scratchLocation, testPostgresUrl, testStoreKind } from './test-store.js';

/** What a template's seeding answers (ids, tokens) is kept as JSON beside it. */
interface TemplateRecord<T> {
  /** The seeded template: a SQLite file, or a postgres:// URL with its schema. */
  location: string;
  seeded: T;
  /** Why seeding failed, so the processes waiting for it fail at once too. */
  failure?: string;
}

/** Seeding a template is a matter of seconds; a wait this long means its seeding process died. */
const WAIT_MS = 5 * 60_000;

/**
 * A store of its own seeded as `seed` seeds it, with what `seed` answered: copied from the run's
 * template of that name, seeding the template first if no process has.
 */
export async function seededStore<T>(name: string, seed: (store: Store) => Promise<T>): Promise<{ store: Store; location: string; seeded: T }> {
  const folder = process.env.LOOM_TEST_TEMPLATES;
  const location = scratchLocation();
  if (!folder) {
    const store = await openLocation(location);
    return { store, location, seeded: await seed(store) };
  }
  const template = await templateOf(folder, name, seed);
  if (testStoreKind === 'sqlite') {
    copySqlite(template.location, location);
    return { store: await openLocation(location), location, seeded: template.seeded };
  }
  const store = await openLocation(location);
  await copySchema(schemaOf(template.location), schemaOf(location));
  return { store, location, seeded: template.seeded };
}

async function templateOf<T>(folder: string, name: string, seed: (store: Store) => Promise<T>): Promise<TemplateRecord<T>> {
  const record = join(folder, `${testStoreKind}-${name}.json`);
  if (!existsSync(record) && claim(join(folder, `${testStoreKind}-${name}.lock`))) {
    const location = testStoreKind === 'sqlite' ? join(folder, `${name}.db`) : templateSchemaUrl(name);
    // Written whole, then renamed: a waiting process never reads half of it.
    const publish = (written: TemplateRecord<T | null>) => {
      const partial = `${record}.${process.pid}.partial`;
      writeFileSync(partial, JSON.stringify(written));
      renameSync(partial, record);
    };
    try {
      publish({ location, seeded: await seedTemplate(location, seed) });
    } catch (error) {
      publish({ location, seeded: null, failure: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }
  const started = performance.now();
  while (!existsSync(record)) {
    if (performance.now() - started > WAIT_MS) throw new Error(`The test template "${name}" was never seeded (${record})`);
    await sleep(50);
  }
  const found = JSON.parse(readFileSync(record, 'utf8')) as TemplateRecord<T>;
  if (found.failure !== undefined) throw new Error(`Seeding the test template "${name}" failed: ${found.failure}`);
  return found;
}

/** True for the one process that creates the lock file. */
function claim(lock: string): boolean {
  try {
    closeSync(openSync(lock, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function seedTemplate<T>(location: string, seed: (store: Store) => Promise<T>): Promise<T> {
  if (testStoreKind === 'postgres') {
    const store = await openLocation(location);
    try {
      return await seed(store);
    } finally {
      await store.close();
    }
  }
  // Seeded in a scratch file, then written whole into the template by VACUUM INTO.
  const scratch = scratchLocation('sqlite');
  const store = await openLocation(scratch);
  let seeded: T;
  try {
    seeded = await seed(store);
  } finally {
    await store.close();
  }
  const db = new Database(scratch, { readonly: true });
  try {
    db.prepare('VACUUM INTO ?').run(location);
  } finally {
    db.close();
  }
  return seeded;
}

function copySqlite(template: string, location: string): void {
  const db = new Database(template, { readonly: true });
  try {
    db.prepare('VACUUM INTO ?').run(location);
  } finally {
    db.close();
  }
}

/** Template schemas are named for the run's folder; scripts/run-tests.mjs drops them at its end. */
function templateSchemaUrl(name: string): string {
  const url = new URL(testPostgresUrl!);
  url.searchParams.set('schema', `loom_template_${randomBytes(4).toString('hex')}_${name}`);
  return url.toString();
}

const schemaOf = (location: string) => new URL(location).searchParams.get('schema')!;

/** Tables that describe the schema rather than hold data, and the search index its trigger rebuilds. */
const NOT_DATA = new Set(['schema_migrations', 'search_fields', 'search_documents']);

/** Copies every data table and id sequence of one migrated schema into another, just migrated. */
async function copySchema(from: string, to: string): Promise<void> {
  const client = await postgresClient(testPostgresUrl!);
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
      [from],
    );
    // apps rows point at their objects row: objects go first.
    const names = tables.map((table) => table.name).filter((table) => !NOT_DATA.has(table));
    const ordered = [...names.filter((table) => table === 'objects'), ...names.filter((table) => table !== 'objects')];
    await client.query('BEGIN');
    // The objects' search trigger names its tables unqualified, as the store's own connections do.
    await client.query(`SET LOCAL search_path TO "${to}"`);
    await client.query(`TRUNCATE ${ordered.map((table) => `"${to}"."${table}"`).join(', ')} CASCADE`);
    for (const table of ordered) await client.query(`INSERT INTO "${to}"."${table}" SELECT * FROM "${from}"."${table}"`);
    const { rows: sequences } = await client.query<{ name: string }>(
      `SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = $1`,
      [from],
    );
    for (const { name } of sequences) {
      await client.query(`SELECT setval($1::regclass, last_value, is_called) FROM "${from}"."${name}"`, [`"${to}"."${name}"`]);
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
