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
  /** Gives the replica up when its time is up. */
  timer: NodeJS.Timeout;
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
  /**
   * `in`: reads go to it and writes wait for it. `joining`: writes wait for it, reads not yet (see
   * ReplicaSet.check). `out`: neither, as it starts and once it failed or lagged.
   */
  state: 'out' | 'joining' | 'in' = 'out';
  /** While joining: when it began (performance.now()), and the primary's position it must replay to be in. */
  joining: { since: number; target?: number } = { since: 0 };
  /** When it last went out (performance.now()); long ago as it starts. */
  private outSince = -Infinity;
  /** Its replay position when last asked. */
  replayed = 0;
  private readonly batches: ReadBatches;
  private waiters: Waiter[] = [];
  private polling = false;

  /**
   * The replica at `url`, in the primary's schema unless the URL names one; objects read on it
   * share the primary's decoded data.
   */
  constructor(
    url: string,
    primary: PostgresLocation,
    readonly decodedData: DecodedData,
    /** How long writes still wait for it after it went out (see holdsWrites). */
    private readonly leaveMs: number,
    /** Told when reads start or stop going to it, in a line for the operator. */
    private readonly report: (line: string) => void = () => {},
  ) {
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
   * Whether a write must wait for it: while reads may go to it in any process. That is while it
   * is in or joining here, and for `leaveMs` after it went out here, the time every other process
   * takes to see what this one saw (its failure or lag) and stop reading it too.
   */
  holdsWrites(now = performance.now()): boolean {
    return this.state !== 'out' || now < this.outSince + this.leaveMs;
  }

  /**
   * Resolves once the replica replayed the log up to `lsn`, or once it no longer holds writes:
   * `deadline` passed (it lags, and goes out) or the time to leave after it went out passed.
   */
  reach(lsn: number, deadline: number): Promise<void> {
    const now = performance.now();
    if (this.replayed >= lsn || !this.holdsWrites(now)) return Promise.resolve();
    const until = this.state === 'out' ? Math.min(deadline, this.outSince + this.leaveMs) : deadline;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        lsn,
        timer: setTimeout(() => {
          // Not there in time: lagging (or unreachable), and given up on.
          this.skip('it did not replay a write in time');
          this.settle(waiter);
        }, Math.max(0, until - now)),
        done: resolve,
      };
      this.waiters.push(waiter);
      void this.poll();
    });
  }

  /**
   * Takes the replica out of reads at once, `why` told to the operator when reads went to it;
   * writes still wait for it for a while (holdsWrites).
   */
  skip(why: string): void {
    if (this.state === 'out') return;
    if (this.state === 'in') this.report(`read replica ${this.name} skipped: ${why}; its reads go to the primary or another replica until it has caught up`);
    this.state = 'out';
    this.outSince = performance.now();
  }

  /** Reads go to it (again): it holds every write answered before (see ReplicaSet.check). */
  use(): void {
    this.state = 'in';
    this.report(`read replica ${this.name} in use`);
  }

  async close(): Promise<void> {
    this.state = 'out';
    this.outSince = -Infinity;
    for (const waiter of [...this.waiters]) this.settle(waiter);
    await this.pool.end();
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters = this.waiters.filter((other) => other !== waiter);
    waiter.done();
  }

  /** One loop per replica, however many writes wait: it asks until each has reached its position or given up. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        // A replica that cannot answer now is asked again, until each waiter's time is up.
        await this.readReplayed().catch(() => {});
        for (const waiter of this.waiters.filter((one) => one.lsn <= this.replayed)) this.settle(waiter);
        if (this.waiters.length > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      this.polling = false;
    }
  }
}
