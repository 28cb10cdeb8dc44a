/**
 * Declared sums (and the averages made of them) live in the counts table beside the association
 * counts, and every write that changes a summed value adjusts them in its own transaction, as
 * addAssoc keeps a count: no read ever sums items.
 */
import type { NodeTypeDef } from '../schema/definition.js';
import type { StoredObject } from '../store/graph-store.js';
import type { WriteOp } from '../store/write-ops.js';

/** What a node adds to its counters (`sign` 1), or takes back when it goes (-1). */
export function counterOps(type: NodeTypeDef | undefined, node: Pick<StoredObject, 'owner' | 'data'>, sign: 1 | -1): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const counter of type?.counters ?? []) {
    const parent = counter.parentKey === undefined ? node.owner : node.data[counter.parentKey];
    const value = node.data[counter.valueKey];
    if (typeof parent === 'number' && typeof value === 'number' && value !== 0) ops.push({ op: 'adjustCount', type: counter.sum, id1: parent, delta: sign * value });
  }
  return ops;
}

/** The adjustments of an update: each counter moves by the change of its value. */
export function counterChangeOps(type: NodeTypeDef, node: StoredObject, changes: Record<string, unknown>): WriteOp[] {
  const after = { owner: node.owner, data: { ...node.data, ...changes } };
  return [...counterOps(type, node, -1), ...counterOps(type, after, 1)];
}
