import { performance } from 'node:perf_hooks';
import { GraphError } from '../../errors.js';
import { nextTurn, SLICE_MS } from './turns.js';

/** What one request may cost in all: edge items read, bytes rendered, and milliseconds of its own work. */
export interface CostLimits {
  /** Most edge items one request reads in all, over every level of nesting. */
  maxItems: number;
  /** Most bytes of field values and links one request renders. */
  maxBytes: number;
  /** Most milliseconds one request works on the event loop, pauses (its own or others') not counted. */
  maxWorkMs: number;
}

/**
 * The cost budget of one request, and its pacing. Each level of nesting multiplies the items
 * (25 friends, 25 posts each, 25 likes each…), so a short `fields` expression could ask for
 * millions: past a budget the request stops with an error. Within it, a request that has worked
 * a slice pauses at its next checkpoint (`pace`) and waits for its turn (see turns.ts): a
 * heavy request takes longer when others are heavy too, a cheap one is never held behind it.
 */
export class CostBudget {
  private items = 0;
  private bytes = 0;
  private workMs = 0;
  private sliceStart: number;
  /** The pause every part of this request waits on once its slice is up, so they all pause together. */
  private pause: Promise<void> | undefined;
  private exceeded: GraphError | undefined;

  /** `startedAt`: when the request's own work began (`performance.now()`), which its first slice counts from. */
  constructor(
    readonly limits: CostLimits,
    startedAt = performance.now(),
  ) {
    this.sliceStart = startedAt;
  }

  spendItems(items: number): void {
    this.items += items;
    if (this.items > this.limits.maxItems) {
      throw GraphError.invalidParameter(
        `This request reads more than ${this.limits.maxItems} items across its edges; ask for fewer with smaller limits or less nesting`,
      );
    }
  }

  spendBytes(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxBytes) throw this.stop();
  }

  /**
   * A checkpoint: pauses when the request has worked a whole slice, and stops it past its time
   * budget. Parts of the request resumed together check again, so that together they work one
   * slice, not one step each, before the next pause.
   */
  async pace(): Promise<void> {
    for (;;) {
      if (this.exceeded) throw this.exceeded;
      if (this.pause) {
        await this.pause;
        continue;
      }
      const worked = performance.now() - this.sliceStart;
      if (worked < SLICE_MS) return;
      this.workMs += worked;
      if (this.workMs > this.limits.maxWorkMs) throw this.stop();
      this.pause = nextTurn().then(() => {
        this.pause = undefined;
        this.sliceStart = performance.now();
      });
    }
  }

  /** The real service's answer to a query too costly to finish; every later checkpoint answers it too. */
  private stop(): GraphError {
    this.exceeded ??= new GraphError(1, "Please reduce the amount of data you're asking for, then retry your request");
    return this.exceeded;
  }
}

/**
 * Maps over items with at most `limit` under way at once, keeping their order. A level with
 * thousands of fields (aliases) would otherwise start them all at once, and after each pause all
 * would take a step before any checkpoint noticed the slice was over.
 */
export async function mapPaced<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  // Few enough to start at once (a node's handful of fields): no queue to keep.
  if (items.length <= limit) return Promise.all(items.map((item) => fn(item)));
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
