import { setImmediate as endOfTurn } from 'node:timers/promises';
import type pg from 'pg';

/** One read of rows keyed by id: the same statement serves any set of ids (`= ANY($1)`). */
export interface BatchedRead {
  /** Reads of equal keys differ only in their ids, and go out together. */
  key: string;
  ids: readonly number[];
  /** Sends the read for all these ids on the connection given. */
  send: (client: pg.PoolClient, ids: number[]) => Promise<pg.QueryResultRow[]>;
}

interface Batch {
  ids: Set<number>;
  rows: Promise<pg.QueryResultRow[]>;
}

/**
 * Reads of one kind go out together. A read waits for the end of the event loop's turn, and then
 * for a connection; meanwhile the reads of its kind that the same turn asks for, and those asked
 * while every connection of the pool is busy, join it (adding their ids to it). So a busy server
 * sends one statement for the people, pages or counts of the many requests it read in one turn,
 * rather than one each, and pays the statement's round trip, parse and bookkeeping once, and the
 * wake-up of a database process that slept. A read waits no more than the rest of its turn: on an
 * idle server, that is nothing. A batch takes no one once it has a connection: each read is still
 * sent after it was asked for, so it sees every write committed before that, as a read of its
 * own would.
 *
 * The rows of a batch are shared by the reads in it: each caller keeps those of its own ids, and
 * changes none of them.
 */
export class ReadBatches {
  private readonly waiting = new Map<string, Batch>();

  constructor(private readonly pool: pg.Pool) {}

  read<R extends pg.QueryResultRow>(read: BatchedRead): Promise<R[]> {
    let batch = this.waiting.get(read.key);
    if (batch === undefined) {
      const ids = new Set<number>();
      batch = { ids, rows: this.send(read, ids) };
      this.waiting.set(read.key, batch);
    }
    for (const id of read.ids) batch.ids.add(id);
    return batch.rows as Promise<R[]>;
  }

  private async send(read: BatchedRead, ids: Set<number>): Promise<pg.QueryResultRow[]> {
    let client: pg.PoolClient;
    try {
      await endOfTurn();
      client = await this.pool.connect();
    } finally {
      // Sent from here on (or failed): later reads start a batch of their own.
      if (this.waiting.get(read.key)?.ids === ids) this.waiting.delete(read.key);
    }
    let failure: Error | undefined;
    try {
      return await read.send(client, [...ids]);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      // As the pool's own query does: a connection whose statement failed is not reused.
      client.release(failure);
    }
  }
}
