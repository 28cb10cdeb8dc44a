/**
 * Which store the tests run on. SQLite files by default; with LOOM_TEST_STORE=postgres, scratch
 * schemas in the PostgreSQL database that LOOM_TEST_PG names (scripts/run-tests.mjs runs the
 * store-using test files once for each). Every scratch location is unique to its process and
 * removed when the test file ends, so parallel runs never see each other's data.
 */
import { after } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
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
  return url.toString();
}

/** Opens (creating and migrating) the store at a location `scratchLocation` gave. */
export async function openLocation(location: string): Promise<Store> {
  return location.startsWith('postgres') ? openPostgresStore(location) : openSqliteStore(location);
}

export async function openScratchStore(kind: TestStoreKind = testStoreKind): Promise<Store> {
  return openLocation(scratchLocation(kind));
}

after(async () => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  if (schemas.length === 0 || testPostgresUrl === undefined) return;
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    // A server a test left running could hold a lock; waiting for it must not hang the run.
    await client.query(`SET lock_timeout = '10s'`);
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
});
