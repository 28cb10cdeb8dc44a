/** Rules of a write batch that every store implementation applies the same way. */
import type { Grant, IdOrRef, WriteOp } from './store.js';
import type { ObjectId } from '../ids.js';

/** The id an op names: a plain id, or the id created by an earlier createObject of the batch. */
export function resolveId(id: IdOrRef, index: number, results: ReadonlyArray<ObjectId | boolean>): ObjectId {
  if (typeof id === 'number') return id;
  const created = id.ref < index ? results[id.ref] : undefined;
  if (typeof created !== 'number') {
    throw new Error(`Write op ${index} refers to op ${id.ref}, which is not an earlier createObject`);
  }
  return created;
}

/** Top-level merge: each key of `changes` replaces the stored one, and a null removes it. */
export function mergeData(current: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  // A Map, so a key such as "__proto__" stays a plain key instead of reaching the prototype.
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

/** A created object's data with its `refFields` filled in: ids of earlier objects, as strings. */
export function filledData(
  op: Extract<WriteOp, { op: 'createObject' }>,
  index: number,
  results: ReadonlyArray<ObjectId | boolean>,
): Record<string, unknown> {
  const filled = { ...op.object.data };
  for (const [key, ref] of Object.entries(op.refFields ?? {})) filled[key] = String(resolveId(ref, index, results));
  return filled;
}

/** The scopes whose status differs between two lists of one person's grants (absent counts as a status). */
export function changedScopes(before: readonly Grant[], after: readonly Grant[]): string[] {
  const old = new Map(before.map(({ scope, status }) => [scope, status]));
  const now = new Map(after.map(({ scope, status }) => [scope, status]));
  return [...new Set([...old.keys(), ...now.keys()])].filter((scope) => old.get(scope) !== now.get(scope));
}
