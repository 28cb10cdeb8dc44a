/**
 * Which store the tests run on. SQLite files by default; with LOOM_TEST_STORE=postgres, scratch
 * schemas in the PostgreSQL database that LOOM_TEST_PG names (scripts/run-tests.mjs runs the
 * store-using test files once for each). Every scratch location is unique to its process and
 * removed when the test file ends, so parallel runs never see each other's data.
 */
import { after } from 'node:test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { isPostgresStore, openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { isSqliteStore, openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { defaultMediaDir } from '../../src/media/media-folder.js';
import type { Store } from '../../src/store/store.js';

export type TestStoreKind = 'sqlite' | 'postgres';

export const testStoreKind: TestStoreKind = process.env.LOOM_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** The PostgreSQL database for scratch schemas, or undefined when the tests have none. */
export const testPostgresUrl: string | undefined = process.env.LOOM_TEST_PG || undefined;

if (testStoreKind === 'postgres' && testPostgresUrl === undefined) {
  throw new Error('LOOM_TEST_STORE=postgres needs LOOM_TEST_PG, the URL of a database for scratch schemas');
}

const directories: string[] = [];
const schemas: string[] = [];
let made = 0;

/** A new, empty place for a store of the given kind: a SQLite file path or a postgres:// URL. */
export function scratchLocation(kind: TestStoreKind = testStoreKind): string {
  made += 1;
  if (kind === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'loom-test-'));
    directories.push(directory);
    return join(directory, `store-${made}.db`);
  }
  if (testPostgresUrl === undefined) throw new Error('A PostgreSQL scratch schema needs LOOM_TEST_PG');
  const schema = `loom_test_${process.pid}_${made}_${randomBytes(3).toString('hex')}`;
  schemas.push(schema);
  const url = new URL(testPostgresUrl);
  url.searchParams.set('schema', schema);
  // A server of the schema started from here without --media-dir keeps its media in the working directory.
  directories.push(defaultMediaDir(url.toString()));
  return url.toString();
}

/** Opens (creating and migrating) the store at a location `scratchLocation` gave. */
export async function openLocation(location: string): Promise<Store> {
  return location.startsWith('postgres') ? openPostgresStore(location) : openSqliteStore(location);
}

export async function openScratchStore(kind: TestStoreKind = testStoreKind): Promise<Store> {
  return openLocation(scratchLocation(kind));
}

/** Rows of a plain SQL query with `?` placeholders, run straight against either store's tables. */
export async function selectRows<R>(store: Store, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  if (isSqliteStore(store)) return store.db.prepare(sql).all(...params) as R[];
  if (isPostgresStore(store)) {
    let n = 0;
    return (await store.pool.query(sql.replace(/\?/g, () => `$${++n}`), [...params])).rows as R[];
  }
  throw new Error('selectRows needs a SQLite or PostgreSQL store');
}

/**
 * Everything the store keeps of its data, to search for what must never be stored: the SQLite
 * file with its write-ahead log and index, or every row of every table of the PostgreSQL schema
 * as text (the server's own files are out of the tests' reach).
 */
export async function storedBytes(store: Store, location: string): Promise<Buffer> {
  if (isPostgresStore(store)) {
    const tables = await selectRows<{ name: string }>(
      store,
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
    );
    const texts = await Promise.all(
      tables.map(({ name }) => selectRows<{ text: string | null }>(store, `SELECT string_agg(t::text, E'\n') AS text FROM "${name}" t`)),
    );
    return Buffer.from(texts.map(([row]) => row?.text ?? '').join('\n'));
  }
  return Buffer.concat(['', '-wal', '-shm'].filter((suffix) => existsSync(location + suffix)).map((suffix) => readFileSync(location + suffix)));
}

/** A connected client of a PostgreSQL server: the driver is loaded only by a process that tests PostgreSQL. */
export async function postgresClient(url: string): Promise<pg.Client> {
  const { default: driver } = await import('pg');
  const client = new driver.Client({ connectionString: url });
  await client.connect();
  return client;
}

after(async () => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  if (schemas.length === 0 || testPostgresUrl === undefined) return;
  const client = await postgresClient(testPostgresUrl);
  try {
    // A server a test left running could hold a lock; waiting for it must not hang the run.
    await client.query(`SET lock_timeout = '10s'`);
    for (const schema of schemas.splice(0)) {
      // Snapshots of the store live in schemas named after it.
      const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE $1`, [`${schema}\\_snap\\_%`]);
      for (const name of [schema, ...rows.map((row) => row.name)]) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    }
  } finally {
    await client.end();
  }
});
