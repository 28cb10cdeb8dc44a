/**
 * Declared sums (and the averages made of them) live in the counts table beside the association
 * counts, and every write that changes a summed value adjusts them in its own transaction, as
 * addAssoc keeps a count: no read ever sums items. The engine's writes and a declaration's data
 * import both turn a node's change into these adjustments.
 */
import type { StoredObject } from './graph-store.js';
import type { WriteOp } from './write-ops.js';

/** A numeric data key summed on the node another key names (the owner when `parentKey` is absent). */
export interface SummedKey {
  /** The counts-table type holding the sum. */
  sum: string;
  parentKey?: string;
  valueKey: string;
}

/** What a node adds to its counters (`sign` 1), or takes back when it goes (-1). */
export function counterOps(counters: readonly SummedKey[] | undefined, node: Pick<StoredObject, 'owner' | 'data'>, sign: 1 | -1): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const counter of counters ?? []) {
    const parent = counter.parentKey === undefined ? node.owner : node.data[counter.parentKey];
    const value = node.data[counter.valueKey];
    if (typeof parent === 'number' && typeof value === 'number' && value !== 0) ops.push({ op: 'adjustCount', type: counter.sum, id1: parent, delta: sign * value });
  }
  return ops;
}

/** The adjustments of an update: each counter moves by the change of its value. */
export function counterChangeOps(counters: readonly SummedKey[] | undefined, node: StoredObject, changes: Record<string, unknown>): WriteOp[] {
  const after = { owner: node.owner, data: { ...node.data, ...changes } };
  return [...counterOps(counters, node, -1), ...counterOps(counters, after, 1)];
}
