import type { Store } from './store.js';
import { postgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/**
 * Opens the store named by a location: a `postgres://` (or `postgresql://`) URL, or else the
 * path of a SQLite file, created on first use. A PostgreSQL store connects and migrates in the
 * background; its first call waits for that, and fails if it failed.
 */
export function openStore(location: string): Store {
  if (/^postgres(ql)?:\/\//i.test(location)) return postgresStore(location);
  return openSqliteStore(location);
}
