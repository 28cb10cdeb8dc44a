import type pg from 'pg';
import type { Store } from '../store.js';
import { postgresAdminStore } from './admin-store.js';
import { postgresAuthStore } from './auth-store.js';
import { PostgresDatabase } from './database.js';
import { postgresGraphStore } from './graph-store.js';
import { postgresRecordStore } from './records.js';

/**
 * The PostgreSQL store, with its pool, its schema and the wait for its migration, for
 * diagnostics and tests (everything else goes through Store).
 */
export type PostgresStore = Store & {
  readonly pool: pg.Pool;
  readonly schema: string;
  /**
   * Settles once the schema is migrated. The store cannot wait when made, so every method waits
   * instead, and a failure to connect or migrate is the failure of the first call.
   */
  readonly ready: Promise<void>;
};

/**
 * The store at a `postgres://` URL, which connects and migrates in the background. The URL may
 * name a schema (`?schema=name`, default `public`) and a pool size (`?pool=N`, default 10).
 */
export function postgresStore(url: string): PostgresStore {
  const database = new PostgresDatabase(url);
  return {
    pool: database.pool,
    schema: database.schema,
    ready: database.ready,
    ...postgresGraphStore(database),
    ...postgresAuthStore(database),
    ...postgresAdminStore(database),
    ...postgresRecordStore(database),
    webhooks: database.webhooks,
    close: () => database.close(),
  };
}

/** Opens the store at a `postgres://` URL (as postgresStore) and waits until its schema is migrated. */
export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const store = postgresStore(url);
  try {
    await store.ready;
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Whether the store is a PostgreSQL one, whose pool tests and diagnostics may reach. */
export function isPostgresStore(store: Store): store is PostgresStore {
  return 'pool' in store;
}
