import type pg from 'pg';
import { DecodedData } from '../decoded-data.js';
import type { GraphReads } from '../graph-store.js';
import { redactPassword } from '../redact-password.js';
import { createPool, firstConnection, parsePostgresLocation, type PostgresLocation } from './connection.js';
import { postgresGraphReads, type ReadingDatabase } from './graph-reads.js';
import { ReadBatches, type BatchedRead } from './read-batches.js';
import type { Statement } from './statements.js';

/** How often a replica is asked how far it replayed while a write waits for it. */
const POLL_MS = 10;

/**
 * How far a server replayed the primary's write-ahead log, in bytes from its start: a replica's
 * replay position, or the write position of a server that is no replica (a primary named as
 * one replays nothing and is always up to date).
 */
const REPLAYED = `SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END - '0/0')::bigint AS lsn`;

interface Waiter {
  lsn: number;
  /** performance.now() past which the replica is given up on as lagging. */
  deadline: number;
  done: () => void;
}

/**
 * One read replica of the primary: a pool of its own, the graph's reads on it, how far it
 * replayed the primary's log when last asked, and whether reads go to it now.
 */
export class Replica implements ReadingDatabase {
  readonly pool: pg.Pool;
  readonly ready = Promise.resolve();
  readonly reads: GraphReads;
  /** The URL without its password, for messages. */
  readonly name: string;
  /** Whether reads go to it and writes wait for it; off until it is known to be caught up. */
  inUse = false;
  /** Its replay position when last asked. */
  replayed = 0;
  private readonly batches: ReadBatches;
  private waiters: Waiter[] = [];
  private polling = false;

  /**
   * The replica at `url`, in the primary's schema unless the URL names one; objects read on it
   * share the primary's decoded data.
   */
  constructor(url: string, primary: PostgresLocation, readonly decodedData: DecodedData) {
    this.name = redactPassword(url);
    const location = parsePostgresLocation(url);
    const schema = new URL(url).searchParams.has('schema') ? location.schema : primary.schema;
    this.pool = createPool({ ...location, schema });
    this.batches = new ReadBatches(this.pool);
    this.reads = postgresGraphReads(this);
  }

  async rows<R extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ ...statement, values })).rows;
  }

  batchedRows<R extends pg.QueryResultRow>(read: BatchedRead): Promise<R[]> {
    return this.batches.read<R>(read);
  }

  /** Connects (within the connection deadline, as the primary's first connection) and asks how far it replayed. */
  async reachable(): Promise<void> {
    (await firstConnection(this.pool)).release();
    await this.readReplayed();
  }

  /** Asks the replica how far it replayed, and keeps the answer; fails when it cannot be reached. */
  async readReplayed(): Promise<number> {
    const { rows } = await this.pool.query<{ lsn: number | null }>(REPLAYED);
    this.replayed = Math.max(this.replayed, rows[0]?.lsn ?? 0);
    return this.replayed;
  }

  /**
   * Resolves once the replica replayed the log up to `lsn`, or once it is taken out of use: by
   * failing to answer, by not getting there before `deadline` (then it is lagging), or otherwise.
   */
  reach(lsn: number, deadline: number): Promise<void> {
    if (!this.inUse || this.replayed >= lsn) return Promise.resolve();
    return new Promise((done) => {
      this.waiters.push({ lsn, deadline, done });
      void this.poll();
    });
  }

  /** Takes the replica out of use (it failed or lags); every write waiting for it goes on. */
  skip(): void {
    this.inUse = false;
    for (const waiter of this.waiters) waiter.done();
    this.waiters = [];
  }

  async close(): Promise<void> {
    this.skip();
    await this.pool.end();
  }

  /** One loop per replica, however many writes wait: it asks until each has been answered. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        try {
          await this.readReplayed();
        } catch {
          this.skip();
          return;
        }
        const now = performance.now();
        if (this.waiters.some((waiter) => waiter.lsn > this.replayed && waiter.deadline < now)) {
          this.skip();
          return;
        }
        const reached = this.waiters.filter((waiter) => waiter.lsn <= this.replayed);
        this.waiters = this.waiters.filter((waiter) => waiter.lsn > this.replayed);
        for (const waiter of reached) waiter.done();
        if (this.waiters.length > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      this.polling = false;
    }
  }
}
