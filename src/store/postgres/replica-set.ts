import type pg from 'pg';
import { Repeating } from '../../clock/repeating.js';
import { describeSystemError } from '../../errors.js';
import type { DecodedData } from '../decoded-data.js';
import type { GraphReads } from '../graph-store.js';
import type { PostgresLocation } from './connection.js';
import { Replica } from './replica.js';

/** How often each replica's lag is measured (and a skipped one tried again). */
const CHECK_MS = 1000;
/** Primary positions kept to tell lags by; past this the oldest go. */
const MAX_SAMPLES = 10_000;

/**
 * Where the primary's log ends now, in bytes from its start: where the next record goes, which
 * is past the last commit even while an asynchronous commit is not written yet. A position just
 * past a page header is where the page starts, as a replica that replayed up to it reports it.
 */
const PRIMARY_POSITION = `
  SELECT CASE WHEN lsn % segment = 40 THEN lsn - 40 WHEN lsn % block = 24 THEN lsn - 24 ELSE lsn END AS lsn
  FROM (SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint AS lsn,
               pg_size_bytes(current_setting('wal_segment_size')) AS segment,
               current_setting('wal_block_size')::bigint AS block) AS here`;

export interface ReplicaSettings {
  /** postgres:// URLs of the replicas. */
  urls: readonly string[];
  /** A replica further behind the primary than this is skipped until it caught up. */
  maxLagMs: number;
}

/** The primary as the replicas need it: its pool for its log position, and its own graph reads. */
export interface Primary {
  pool: pg.Pool;
  location: PostgresLocation;
  decodedData: DecodedData;
  reads: GraphReads;
}

/** A position of the primary's log and when it was seen (performance.now()). */
interface Sample {
  lsn: number;
  at: number;
}

/**
 * The read replicas of a primary, and the choice of where a graph read goes. A read goes to a
 * replica in use (in turn), and to the primary while none is, or while a change notice is fresh:
 * a cache refilled after a change (of tokens, grants, apps, settings, applied schemas, or the
 * control plane's state) then reads what the change left, never what a replica still holds from
 * before it. A write waits until each replica in use replayed it (replayed()), so whatever any
 * process reads after it was answered holds it. A replica is skipped when it fails or lags more
 * than the settings allow; it is used again once it answers and has caught up with the primary.
 *
 * Lag is measured against positions of the primary's log seen at known moments: a replica lags
 * by the age of the oldest one it has not replayed.
 */
export class ReplicaSet {
  readonly reads: GraphReads;
  private readonly replicas: Replica[];
  private samples: Sample[] = [];
  /** Change notices whose state the replicas in use may not have replayed yet. */
  private fences = 0;
  private turn = 0;
  /** The measure of every replica, once a check period. */
  private readonly checks = new Repeating(() => this.check(), CHECK_MS, () => {});

  constructor(
    private readonly primary: Primary,
    private readonly settings: ReplicaSettings,
  ) {
    this.replicas = settings.urls.map((url) => new Replica(url, primary.location, primary.decodedData));
    this.reads = Object.fromEntries(Object.keys(primary.reads).map((name) => [name, this.routed(name as keyof GraphReads)])) as unknown as GraphReads;
  }

  /**
   * Reaches every replica, failing with the name of one that cannot be reached, and uses those
   * that have caught up with the primary (the others once they have).
   */
  async start(): Promise<void> {
    await Promise.all(
      this.replicas.map((replica) =>
        replica.reachable().catch((error: unknown) => {
          throw new Error(`cannot reach the read replica ${replica.name}: ${describeSystemError(error)}`, { cause: error });
        }),
      ),
    );
    await this.check();
    this.checks.start();
  }

  async close(): Promise<void> {
    await this.checks.stop();
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }

  /**
   * A change was heard: graph reads go to the primary until every replica in use replayed the
   * primary's log as far as it reaches now, which holds the change.
   */
  fence(): void {
    this.fences += 1;
    void this.replayed().finally(() => (this.fences -= 1));
  }

  /**
   * Resolves once every replica in use replayed the primary's log as far as it reaches now, or
   * was skipped: failing to answer, or lagging past the settings' limit and the time of two
   * checks more, by which every process checking it has seen that it lags and skips it too.
   */
  async replayed(): Promise<void> {
    if (!this.replicas.some((replica) => replica.inUse)) return;
    let lsn: number;
    try {
      lsn = await this.position();
    } catch {
      // The primary cannot be asked: the write that asked has failed or will, and nothing waits.
      return;
    }
    const deadline = performance.now() + this.settings.maxLagMs + 2 * CHECK_MS;
    await Promise.all(this.replicas.map((replica) => replica.reach(lsn, deadline)));
  }

  /** Where a graph read goes now: a replica in use and within its lag, in turn; none while fenced. */
  private choose(): Replica | undefined {
    if (this.fences > 0) return undefined;
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      const replica = this.replicas[this.turn++ % this.replicas.length]!;
      if (!replica.inUse) continue;
      if (this.lag(replica) <= this.settings.maxLagMs) return replica;
      replica.skip();
    }
    return undefined;
  }

  private routed<K extends keyof GraphReads>(name: K): GraphReads[K] {
    type Read = (...args: unknown[]) => Promise<unknown>;
    const onPrimary = this.primary.reads[name] as unknown as Read;
    const read = async (...args: unknown[]): Promise<unknown> => {
      const replica = this.choose();
      if (replica !== undefined) {
        try {
          return await (replica.reads[name] as unknown as Read)(...args);
        } catch (error) {
          // A fault of the request itself fails on the primary as well; anything else is the replica's.
          if (error instanceof RangeError || error instanceof TypeError) throw error;
          replica.skip();
        }
      }
      return onPrimary(...args);
    };
    return read as unknown as GraphReads[K];
  }

  /** The primary's log position now, kept as a sample to measure lags by. */
  private async position(): Promise<number> {
    const { rows } = await this.primary.pool.query<{ lsn: number }>(PRIMARY_POSITION);
    const lsn = rows[0]!.lsn;
    const last = this.samples.at(-1);
    if (last === undefined || lsn > last.lsn) this.samples.push({ lsn, at: performance.now() });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    return lsn;
  }

  /** How long ago the primary reached a position the replica has not replayed (0: none). */
  private lag(replica: Replica): number {
    const behind = this.samples.find((sample) => sample.lsn > replica.replayed);
    return behind === undefined ? 0 : performance.now() - behind.at;
  }

  /**
   * Measures each replica: one that fails is skipped, one in use that lags too far too, and one
   * out of use that answers and has replayed the primary's log as far as it reached just before
   * is used again.
   */
  private async check(): Promise<void> {
    let lsn: number;
    try {
      lsn = await this.position();
    } catch {
      return;
    }
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          await replica.readReplayed();
        } catch {
          replica.skip();
          return;
        }
        if (!replica.inUse && replica.replayed >= lsn) replica.inUse = true;
        else if (replica.inUse && this.lag(replica) > this.settings.maxLagMs) replica.skip();
      }),
    );
    // Samples every replica in use has replayed tell no lag any more.
    const inUse = this.replicas.filter((replica) => replica.inUse);
    const floor = Math.min(...inUse.map((replica) => replica.replayed));
    const firstNeeded = this.samples.findIndex((sample) => sample.lsn > floor);
    this.samples = firstNeeded < 0 ? this.samples.slice(-1) : this.samples.slice(firstNeeded);
  }
}
