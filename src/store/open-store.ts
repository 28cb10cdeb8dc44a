import type { Store } from './store.js';
import { postgresStore } from './postgres/postgres-store.js';
import type { ReplicaSettings } from './postgres/replica-set.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/**
 * Opens the store named by a location: a `postgres://` (or `postgresql://`) URL, or else the
 * path of a SQLite file, created on first use. A PostgreSQL store connects and migrates in the
 * background; its first call waits for that, and fails if it failed. Read replicas are for a
 * PostgreSQL store only.
 */
export function openStore(location: string, replicas?: ReplicaSettings): Store {
  if (isPostgresLocation(location)) return postgresStore(location, replicas);
  if (replicas !== undefined && replicas.urls.length > 0) throw new Error(`read replicas serve a PostgreSQL database only, not ${location}`);
  return openSqliteStore(location);
}

/** Whether a location names a PostgreSQL database rather than a SQLite file. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
