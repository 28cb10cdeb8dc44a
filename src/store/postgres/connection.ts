import { availableParallelism } from 'node:os';
import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { redactPassword } from '../redact-password.js';

/**
 * Connections per process: one per core (at least 4, at most 10). A Node process keeps that many
 * statements in flight, which the database can run at once on a machine of that size; more
 * connections would only queue inside the server, and several processes share it. Fewer than 4
 * would split a level of a query: its node, page and counts (and up to four edges of a level)
 * are sent side by side, and each one waiting for a connection would wait a round trip more.
 */
const DEFAULT_POOL_SIZE = Math.min(10, Math.max(4, availableParallelism()));
/**
 * How long opening a store waits for its first connection before failing with the database's
 * name. Only that first one: pg-pool's own connection timeout can leave a checkout that never
 * settles when a connection is slow to open on a busy machine, so the pool has none.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const INT8 = 20;
/** A plain lower-case identifier, so it never needs quoting rules beyond the double quotes. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Where a PostgreSQL store lives: the server and database, and the schema inside it. */
export interface PostgresLocation {
  /** The URL as given, minus Loom's own `schema` and `pool` parameters. */
  connectionString: string;
  /** `?schema=name` keeps several Loom graphs apart in one database; `public` by default. */
  schema: string;
  poolSize: number;
}

export function parsePostgresLocation(url: string): PostgresLocation {
  if (!URL.canParse(url)) throw new Error(`${redactPassword(url)} is not a PostgreSQL URL such as postgres://user:password@host:5432/database`);
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`The schema "${schema}" is not a plain lower-case name (letters, digits and _)`);
  }
  const pool = parsed.searchParams.get('pool');
  const poolSize = pool === null ? DEFAULT_POOL_SIZE : Number(pool);
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000) {
    throw new Error(`The pool size "${pool}" is not a whole number from 1 to 1000`);
  }
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('pool');
  return { connectionString: parsed.toString(), schema, poolSize };
}

/** The pool's first connection, or an error once `CONNECT_TIMEOUT_MS` passed without one. */
export function firstConnection(pool: pg.Pool): Promise<pg.PoolClient> {
  const connecting = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // A connection that opens after all is handed back rather than kept by nobody.
      connecting.then((client) => client.release(), () => {});
      reject(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} seconds`));
    }, CONNECT_TIMEOUT_MS);
  });
  return Promise.race([connecting, deadline]).finally(() => clearTimeout(timer));
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A pool whose connections resolve table names in the location's schema, and return bigint
 * columns as numbers: Loom's ids and counts stay below 2^53 by design. Every prepared statement
 * keeps one generic plan: each is a lookup by key or an index range whose plan does not depend
 * on its values, and planning a page query afresh for each execution (PostgreSQL's choice when a
 * generic plan looks dearer than the first custom ones) costs more than running it.
 */
export function createPool(location: PostgresLocation, { keepOpen = false }: { keepOpen?: boolean } = {}): pg.Pool {
  const driver = pgDriver();
  const pool = new driver.Pool({
    connectionString: location.connectionString,
    max: location.poolSize,
    // Unless kept open, a connection idle for pg-pool's default of 10 seconds is closed.
    ...(keepOpen ? { idleTimeoutMillis: 0 } : {}),
    application_name: 'loom',
    options: `-c search_path=${quoteIdentifier(location.schema)} -c plan_cache_mode=force_generic_plan`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? Number : (driver.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection that breaks (a server restart, an administrator's kill) is dropped by the
  // pool, and the next query opens a fresh one; without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}
