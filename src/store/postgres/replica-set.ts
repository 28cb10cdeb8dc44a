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
 * How long a write still waits for a replica after this process stopped reading from it, or for
 * one that lags past the limit: two checks, by which every other process has measured it too,
 * and stopped reading from it as well.
 */
const LEAVE_MS = 2 * CHECK_MS;
/** Positions seen closer together than this are kept as one sample. */
const SAMPLE_SPACING_MS = 10;

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
  /** Told, in a line for the operator, when reads start or stop going to a replica. */
  report?: (line: string) => void;
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
    this.replicas = settings.urls.map((url) => new Replica(url, primary.location, primary.decodedData, LEAVE_MS, settings.report));
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
   * Resolves once every replica that holds writes (Replica.holdsWrites) replayed the primary's log
   * as far as it reaches now, or was given up: not there within the lag limit and LEAVE_MS more,
   * or LEAVE_MS after it went out, by which every process has stopped reading from it too.
   */
  async replayed(): Promise<void> {
    if (!this.replicas.some((replica) => replica.holdsWrites())) return;
    let lsn: number;
    try {
      lsn = await this.position();
    } catch {
      // The primary cannot be asked: the write that asked has failed or will, and nothing waits.
      return;
    }
    const deadline = performance.now() + this.settings.maxLagMs + LEAVE_MS;
    await Promise.all(this.replicas.map((replica) => replica.reach(lsn, deadline)));
  }

  /** Where a graph read goes now: a replica in use and within its lag, in turn; none while fenced. */
  private choose(): Replica | undefined {
    if (this.fences > 0) return undefined;
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      const replica = this.replicas[this.turn++ % this.replicas.length]!;
      if (replica.state !== 'in') continue;
      const lag = this.lag(replica);
      if (lag <= this.settings.maxLagMs) return replica;
      replica.skip(this.lagging(lag));
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
          replica.skip(`a read failed: ${describeSystemError(error)}`);
        }
      }
      return onPrimary(...args);
    };
    return read as unknown as GraphReads[K];
  }

  /**
   * The primary's log position now, kept as a sample to measure lags by. Samples closer together
   * than SAMPLE_SPACING_MS are one, at the earlier time: a lag is then overestimated, never under.
   */
  private async position(): Promise<number> {
    const { rows } = await this.primary.pool.query<{ lsn: number }>(PRIMARY_POSITION);
    const lsn = rows[0]!.lsn;
    const now = performance.now();
    const last = this.samples.at(-1);
    if (last !== undefined && lsn <= last.lsn) return lsn;
    if (last !== undefined && now - last.at < SAMPLE_SPACING_MS) last.lsn = lsn;
    else this.samples.push({ lsn, at: now });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    return lsn;
  }

  /** Why a replica lagging by `lag` ms is skipped, for the operator. */
  private lagging(lag: number): string {
    return `it is ${(lag / 1000).toFixed(1)} s behind the primary, past the limit of ${this.settings.maxLagMs / 1000} s`;
  }

  /** How long ago the primary reached a position the replica has not replayed (0: none). */
  private lag(replica: Replica): number {
    // The samples go up by position: the first one past the replica's, found by halving.
    let [low, high] = [0, this.samples.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.samples[middle]!.lsn > replica.replayed) high = middle;
      else low = middle + 1;
    }
    const behind = this.samples[low];
    return behind === undefined ? 0 : performance.now() - behind.at;
  }

  /**
   * Measures each replica. One that fails is out; one in or joining that lags past the limit
   * too. One out that answers within the limit joins: from then on this process's writes wait
   * for it, and once every other process has measured it as well (two checks later) and so
   * waits for it too, the primary's position then is its target; when it has replayed that, it
   * holds every write answered before, and reads go to it again.
   */
  private async check(): Promise<void> {
    let lsn: number;
    try {
      lsn = await this.position();
    } catch {
      return;
    }
    const now = performance.now();
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          await replica.readReplayed();
        } catch (error) {
          replica.skip(`it cannot be reached: ${describeSystemError(error)}`);
          return;
        }
        const lag = this.lag(replica);
        if (lag > this.settings.maxLagMs) return replica.skip(this.lagging(lag));
        if (replica.state === 'out') {
          replica.state = 'joining';
          replica.joining = { since: now };
        } else if (replica.state === 'joining') {
          const { since, target } = replica.joining;
          if (target === undefined && now - since >= LEAVE_MS) replica.joining.target = lsn;
          else if (target !== undefined && replica.replayed >= target) replica.use();
        }
      }),
    );
    // Samples that every replica answering has replayed tell no lag any more.
    const floor = Math.min(...this.replicas.map((replica) => replica.replayed));
    const firstNeeded = this.samples.findIndex((sample) => sample.lsn > floor);
    this.samples = firstNeeded < 0 ? this.samples.slice(-1) : this.samples.slice(firstNeeded);
  }
}
