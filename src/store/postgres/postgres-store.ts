import type pg from 'pg';
import type { Store } from '../store.js';
import { postgresAdminStore } from './admin-store.js';
import { postgresAuthStore } from './auth-store.js';
import { PostgresDatabase } from './database.js';
import { postgresGraphStore } from './graph-store.js';
import { postgresGraphReads } from './graph-reads.js';
import { postgresRecordStore } from './records.js';
import { ReplicaSet, type ReplicaSettings } from './replica-set.js';
import { withReplicas } from './replicated-store.js';

/**
 * The PostgreSQL store, with its pool, its schema and the wait for its migration, for
 * diagnostics and tests (everything else goes through Store).
 */
export type PostgresStore = Store & {
  readonly pool: pg.Pool;
  readonly schema: string;
  /**
   * Settles once the schema is migrated (and the read replicas reached). The store cannot wait
   * when made, so every method waits instead, and a failure to connect or migrate is the failure
   * of the first call; one to reach a replica is the failure of `ready` alone.
   */
  readonly ready: Promise<void>;
};

/**
 * The store at a `postgres://` URL, which connects and migrates in the background. The URL may
 * name a schema (`?schema=name`, default `public`) and a pool size (`?pool=N`, default 10). With
 * read replicas (streaming replicas of that database), requests that only read read the graph
 * on them (replica-set.ts).
 */
export function postgresStore(url: string, replicas?: ReplicaSettings): PostgresStore {
  const database = new PostgresDatabase(url);
  const store: PostgresStore = {
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
  if (replicas === undefined || replicas.urls.length === 0) return store;
  const set = new ReplicaSet({ pool: database.pool, location: database.location, decodedData: database.decodedData, reads: postgresGraphReads(database) }, replicas);
  // Whatever a cache reads again after a change notice, it reads from the primary.
  database.authListener.onChange(() => set.fence());
  const ready = database.ready.then(() => set.start());
  ready.catch(() => {});
  const close = async () => {
    await set.close();
    await database.close();
  };
  return withReplicas({ ...store, ready, close }, set);
}

/** Opens the store at a `postgres://` URL (as postgresStore) and waits until its schema is migrated. */
export async function openPostgresStore(url: string, replicas?: ReplicaSettings): Promise<PostgresStore> {
  const store = postgresStore(url, replicas);
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
