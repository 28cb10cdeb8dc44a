/** The ops of a write batch (GraphStore.write), and the rules every store implementation applies to them the same way. */
import type { ObjectId } from '../ids.js';
import type { Grant, TokenRecord } from './auth-store.js';

export interface NewObject {
  type: string;
  owner: ObjectId | null;
  createdTime: number;
  updatedTime?: number;
  data: Record<string, unknown>;
}

/** A reference to an object created earlier in the same write batch: its index in `ops`. */
export interface Ref {
  ref: number;
}
export type IdOrRef = ObjectId | Ref;

export type WriteOp =
  /**
   * `refFields` names data keys to fill with the id (as a decimal string) of an object created
   * earlier in the batch: a photo's story post carries the photo's id in `object_id`.
   */
  | { op: 'createObject'; object: NewObject; refFields?: Record<string, Ref> }
  | { op: 'updateObject'; id: ObjectId; data: Record<string, unknown>; updatedTime: number }
  /** Removes the object, every association from or to it, and its counts; fixes other counts. */
  | { op: 'deleteObject'; id: ObjectId }
  /** Idempotent: adding an existing (id1, type, id2) changes nothing and counts stay exact. */
  | { op: 'addAssoc'; type: string; id1: IdOrRef; id2: IdOrRef; time: number; data?: Record<string, unknown> | null }
  | { op: 'removeAssoc'; type: string; id1: ObjectId; id2: ObjectId }
  /**
   * Removes a person and everything that is theirs, each object as deleteObject would: the
   * objects they own, the objects those list under the `cascade` association types (others'
   * comments on their posts), the person, and their grants, tokens (revoked ones too),
   * credentials and authorization codes under every app. Reports whether the person existed.
   */
  | { op: 'deleteUser'; id: ObjectId; cascade: readonly string[] }
  /**
   * Fails the whole batch with a CountLimitError when `id1` has more than `max` associations of
   * `type` at this point of the batch, counting those the batch added before it. Placed after the
   * batch's addAssoc of a new item to that list, it holds against simultaneous batches doing the
   * same: each sees the others' committed adds, so together they never exceed `max`.
   */
  | { op: 'checkCount'; type: string; id1: ObjectId; max: number }
  /** setCredentials inside a batch, for a user the batch may create. */
  | { op: 'setCredentials'; userId: IdOrRef; email: string; passwordHash: string }
  /** setGrants of one user inside a batch, for a user the batch may create. */
  | { op: 'setGrants'; appId: ObjectId; userId: IdOrRef; grants: readonly Grant[] }
  /** saveToken inside a batch, for a user the batch may create. */
  | { op: 'saveToken'; token: Omit<TokenRecord, 'userId'> & { userId: IdOrRef | null } }
  /**
   * Puts a change in the webhook outbox, in the same transaction as the change: `field` of
   * `subject` changed at `time` (for one app only when `appId` is set).
   */
  | { op: 'recordChange'; subject: IdOrRef; field: string; time: number; appId?: ObjectId }
  /** Adds `delta` (which may be negative) to the count `(id1, type)`: a declared sum kept beside an association count. */
  | { op: 'adjustCount'; type: string; id1: IdOrRef; delta: number }
  /**
   * Names the object by the team's own key within its object type (replacing what the key named
   * before). Deleting the object drops its keys.
   */
  | { op: 'setDeclaredKey'; type: string; key: string; id: IdOrRef };

/** A checkCount op found its list full; nothing of the batch was written. */
export class CountLimitError extends Error {
  constructor(
    readonly type: string,
    readonly id1: ObjectId,
    readonly max: number,
  ) {
    super(`Object ${id1} would have more than ${max} associations of type ${type}`);
    this.name = 'CountLimitError';
  }
}

export interface WriteResult {
  /** For each op: the created object's id (createObject), or whether anything changed. */
  results: Array<ObjectId | boolean>;
}

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
