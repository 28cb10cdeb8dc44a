import type pg from 'pg';
import { AuthListener } from './auth-listener.js';
import { DecodedData } from '../decoded-data.js';
import { describeSystemError } from '../../errors.js';
import { redactPassword } from '../redact-password.js';
import { createPool, firstConnection, parsePostgresLocation, type PostgresLocation } from './connection.js';
import { migrate } from './migrations.js';
import type { Statement } from './statements.js';
import { PostgresWebhooks } from './webhook-queue.js';
import { ReadBatches, type BatchedRead } from './read-batches.js';

/** Deadlocks and serialization failures: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

/**
 * What the roles of the PostgreSQL store share: the pool, the wait for the migrated schema,
 * transactions with their retries, reads batched by kind, the decoded data of objects read
 * lately, the auth change notifications, and the webhook tables.
 */
export class PostgresDatabase {
  readonly pool: pg.Pool;
  readonly schema: string;
  /**
   * Settles once the schema is migrated. The constructor cannot wait, so every method waits
   * instead, and a failure to connect or migrate is the failure of the first call.
   */
  readonly ready: Promise<void>;
  private closed = false;
  readonly webhooks: PostgresWebhooks;
  readonly authListener: AuthListener;
  /** Where the pool connects, for the connections kept apart from it. */
  readonly location: PostgresLocation;
  readonly decodedData = new DecodedData();
  private readonly batches: ReadBatches;
  private goingBack: pg.Pool | undefined;

  constructor(url: string) {
    const location = parsePostgresLocation(url);
    this.location = location;
    this.schema = location.schema;
    this.pool = createPool(location);
    this.batches = new ReadBatches(this.pool);
    this.authListener = new AuthListener(location);
    // Listening from the start lets the token cache work from the first request.
    this.ready = this.migrate()
      .then(() => this.authListener.start())
      .catch((error: unknown) => {
        throw new Error(`cannot use the PostgreSQL database ${redactPassword(url)}: ${describeSystemError(error)}`, { cause: error });
      });
    // Marks the failure as handled here; callers still see it when they wait on `ready`.
    this.ready.catch(() => {});
    this.webhooks = new PostgresWebhooks({ rows: (statement, values) => this.rows(statement, values), transaction: (work) => this.transaction(work) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.authListener.close();
    await this.ready.catch(() => {});
    await Promise.all([this.pool.end(), this.goingBack?.end()]);
  }

  /**
   * The connection that goes back to marks (resets and restores), one of its own, opened at the
   * first and kept open. Going back runs the undo log's functions, which PostgreSQL compiles and
   * plans per connection the first time each part runs: on the pool's connections, taken in turn
   * and closed when idle, a reset would often pay that again (going back took 12–20 ms on a new
   * connection, 4–7 ms on one that had gone back before). Resets wait for one another anyway (the
   * tables' locks), so one connection loses nothing. It is a pool of one, which replaces the
   * connection at the next call once it broke; once the store is closed, the closed pool answers
   * (with its error), and nothing opens.
   */
  goBackConnection(): pg.Pool {
    if (this.closed) return this.pool;
    this.goingBack ??= createPool({ ...this.location, poolSize: 1 }, { keepOpen: true });
    return this.goingBack;
  }

  /**
   * Every change to apps, tokens, grants or credentials ends here once committed: the other
   * processes hear of it through the tables' triggers, this one at once, and the caller goes on
   * only once the notification is on its way to all of them.
   */
  async afterAuthChange<T>(change: Promise<T>): Promise<T> {
    const result = await change;
    await this.authListener.changed();
    return result;
  }

  private async migrate(): Promise<void> {
    const client = await firstConnection(this.pool);
    let failure: Error | undefined;
    try {
      await migrate(client, this.schema);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      // A connection that failed mid-migration is not handed to anyone else.
      client.release(failure);
    }
  }

  async rows<R extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    await this.ready;
    return (await this.pool.query<R>({ ...statement, values })).rows;
  }

  /** A read keyed by ids, sent together with the reads of its kind that wait for a connection with it (read-batches.ts). */
  async batchedRows<R extends pg.QueryResultRow>(read: BatchedRead): Promise<R[]> {
    await this.ready;
    return this.batches.read<R>(read);
  }

  /**
   * Runs `work` in one transaction on one connection. A deadlock rolls the whole transaction
   * back, so it runs again from the start (a bounded number of times).
   */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready;
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        const retry = attempt < MAX_ATTEMPTS && RETRYABLE.has((error as { code?: string }).code ?? '');
        if (!retry) throw error;
      } finally {
        client.release(broken);
      }
      // Apart by a short random pause, so the transactions that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
