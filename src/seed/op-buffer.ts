/**
 * Collects write ops and sends them to the store a few thousand at a time. Work is added in
 * units (an object with its associations, a post with its likes): a batch is only cut between
 * units, so the `{ref}` of an object created in a unit always points inside the same batch.
 */
import type { Store } from '../store/store.js';
import type { IdOrRef, NewObject, Ref, WriteOp } from '../store/write-ops.js';
import type { ObjectId } from '../ids.js';

export class OpBuffer {
  private ops: WriteOp[] = [];
  private idReceivers: Array<{ index: number; receive: (id: ObjectId) => void }> = [];

  constructor(
    private readonly store: Store,
    private readonly batchSize: number,
    /** Called after every batch the store has taken. */
    private readonly afterBatch: () => void = () => {},
  ) {}

  /** Queues an object; `receive` learns its id once the batch is written. */
  create(object: NewObject, receive?: (id: ObjectId) => void): Ref {
    const index = this.ops.length;
    this.ops.push({ op: 'createObject', object });
    if (receive) this.idReceivers.push({ index, receive });
    return { ref: index };
  }

  /** `data` rides on the association (a relative's `relationship`). */
  link(type: string, id1: IdOrRef, id2: IdOrRef, time: number, data?: Record<string, unknown>): void {
    this.ops.push(data === undefined ? { op: 'addAssoc', type, id1, id2, time } : { op: 'addAssoc', type, id1, id2, time, data });
  }

  update(id: ObjectId, data: Record<string, unknown>, updatedTime: number): void {
    this.ops.push({ op: 'updateObject', id, data, updatedTime });
  }

  /** Marks the end of a unit of work: writes the batch once it is full. */
  async endUnit(): Promise<void> {
    if (this.ops.length >= this.batchSize) await this.flush();
  }

  /** Writes each item as a unit of its own, then whatever is left. */
  async eachUnit<T>(items: Iterable<T>, write: (item: T) => void): Promise<void> {
    for (const item of items) {
      write(item);
      await this.endUnit();
    }
    await this.flush();
  }

  async flush(): Promise<void> {
    if (this.ops.length === 0) return;
    const ops = this.ops;
    const receivers = this.idReceivers;
    this.ops = [];
    this.idReceivers = [];
    const { results } = await this.store.write(ops);
    for (const { index, receive } of receivers) {
      const id = results[index];
      if (typeof id !== 'number') throw new Error(`the store returned no id for created object #${index}`);
      receive(id);
    }
    this.afterBatch();
  }
}
