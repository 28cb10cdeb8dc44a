import type pg from 'pg';
import type { TokenRecord } from '../auth-store.js';
import type { ObjectId } from '../../ids.js';
import { filledData, mergeData, resolveId, CountLimitError, type NewObject, type WriteOp } from '../write-ops.js';
import { statements, type Statement } from './statements.js';
import { recordChange } from './webhook-queue.js';
import { columnArrays } from './column-arrays.js';

type Results = Array<ObjectId | boolean>;
type AddAssoc = Extract<WriteOp, { op: 'addAssoc' }>;
type CreateObject = Extract<WriteOp, { op: 'createObject' }>;

const run = <R extends pg.QueryResultRow>(client: pg.ClientBase, statement: Statement, values: unknown[]) =>
  client.query<R>({ ...statement, values });

const json = (value: Record<string, unknown> | null | undefined): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

/** Applies the ops from `start` up to `end`, all of one stretch's kinds, in as few statements as it can. */
type ApplyStretch = (client: pg.ClientBase, ops: readonly WriteOp[], start: number, end: number, results: Results) => Promise<void>;

/** Ops that go to the server a run at a time: consecutive ops of one entry's kinds are applied together. */
const STRETCHES: ReadonlyArray<{ ops: ReadonlySet<WriteOp['op']>; apply: ApplyStretch }> = [
  { ops: new Set(['createObject', 'addAssoc']), apply: applyStretch },
  { ops: new Set(['setDeclaredKey']), apply: setDeclaredKeys },
  { ops: new Set(['adjustCount']), apply: adjustCounts },
];

/**
 * Applies a batch inside the caller's transaction. The bulk of any batch, stretches of
 * createObject and addAssoc ops, goes to the server as three statements per stretch, whatever
 * its length; the other ops take one or two statements apiece.
 */
export async function applyOps(client: pg.ClientBase, ops: readonly WriteOp[]): Promise<Results> {
  const results: Results = new Array<ObjectId | boolean>(ops.length);
  let index = 0;
  while (index < ops.length) {
    const op = ops[index]!;
    const stretch = STRETCHES.find(({ ops: family }) => family.has(op.op));
    if (stretch) {
      let end = index + 1;
      while (end < ops.length && stretch.ops.has(ops[end]!.op)) end += 1;
      await stretch.apply(client, ops, index, end, results);
      index = end;
      continue;
    }
    switch (op.op) {
      case 'updateObject':
        results[index] = await updateObject(client, op.id, op.data, op.updatedTime);
        break;
      case 'deleteObject':
        results[index] = (await deleteObjects(client, [op.id])) > 0;
        break;
      case 'deleteUser':
        results[index] = await deleteUser(client, op.id, op.cascade);
        break;
      case 'removeAssoc': {
        const { rows } = await run<{ removed: number }>(client, statements.deleteAssociation, [op.id1, op.type, op.id2]);
        results[index] = rows[0]!.removed > 0;
        break;
      }
      case 'checkCount':
        results[index] = await checkCount(client, op);
        break;
      case 'setCredentials':
        await run(client, statements.upsertCredentials, [resolveId(op.userId, index, results), op.email.toLowerCase(), op.passwordHash]);
        results[index] = true;
        break;
      case 'setGrants': {
        const userId = resolveId(op.userId, index, results);
        // One row per scope, the last grant winning, as setGrants does.
        const latest = new Map(op.grants.map(({ scope, status }) => [scope, status]));
        await run(client, statements.deleteGrants, [op.appId, [userId]]);
        if (latest.size > 0) {
          await run(client, statements.insertGrants, [op.appId, [...latest.keys()].map(() => userId), [...latest.keys()], [...latest.values()]]);
        }
        results[index] = true;
        break;
      }
      case 'saveToken': {
        const userId = op.token.userId === null ? null : resolveId(op.token.userId, index, results);
        await run(client, statements.upsertTokens, tokenValues([{ ...op.token, userId }]));
        results[index] = true;
        break;
      }
      case 'recordChange':
        await recordChange(client, resolveId(op.subject, index, results), op.field, op.time, op.appId ?? null);
        results[index] = true;
        break;
      default:
        throw new Error(`Unknown write op at index ${index}: ${JSON.stringify(op)}`);
    }
    index += 1;
  }
  return results;
}

/**
 * The createObject ops of a stretch all go first: a new object has no associations yet, and an
 * addAssoc may only name objects created before it, which resolveId checks by op position.
 */
async function applyStretch(client: pg.ClientBase, ops: readonly WriteOp[], start: number, end: number, results: Results): Promise<void> {
  const creates: number[] = [];
  const adds: number[] = [];
  for (let index = start; index < end; index += 1) (ops[index]!.op === 'createObject' ? creates : adds).push(index);
  if (creates.length > 0) {
    const { rows } = await run<{ id: number }>(client, statements.reserveObjectIds, [creates.length]);
    // One session's nextval calls ascend, so in id order the objects keep the order of the ops.
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    creates.forEach((index, i) => (results[index] = ids[i]!));
    // Filled once every id of the stretch is known; resolveId still refuses a ref to a later op.
    const objects = creates.map((index) => ({ ...(ops[index] as CreateObject).object, data: filledData(ops[index] as CreateObject, index, results) }));
    await insertObjects(client, ids, objects);
  }
  if (adds.length > 0) {
    const inserted = await addAssociations(client, adds.map((index) => ops[index] as AddAssoc), adds, results);
    adds.forEach((index, i) => (results[index] = inserted[i]!));
  }
}

async function insertObjects(client: pg.ClientBase, ids: readonly ObjectId[], objects: readonly NewObject[]): Promise<void> {
  const columns = columnArrays(objects, (o) => o.type, (o) => o.owner, (o) => o.createdTime, (o) => o.updatedTime ?? o.createdTime, (o) => JSON.stringify(o.data));
  await run(client, statements.insertObjects, [ids, ...columns]);
}

/** `positions` are the ops' indexes in the batch, against which their refs are checked. */
async function addAssociations(
  client: pg.ClientBase,
  ops: readonly AddAssoc[],
  positions: readonly number[],
  results: Results,
): Promise<boolean[]> {
  const id1s = ops.map((op, i) => resolveId(op.id1, positions[i]!, results));
  const id2s = ops.map((op, i) => resolveId(op.id2, positions[i]!, results));
  const { rows } = await run<{ id1: number; type: string; id2: number }>(client, statements.insertAssociations, [
    id1s,
    ops.map((op) => op.type),
    id2s,
    ops.map((op) => op.time),
    ops.map((op) => json(op.data)),
  ]);
  const key = (id1: number, type: string, id2: number) => `${id1}\u0000${type}\u0000${id2}`;
  const inserted = new Set(rows.map((row) => key(row.id1, row.type, row.id2)));
  // A pair named twice in the stretch was inserted once: the first op naming it reports the change.
  return ops.map((op, i) => inserted.delete(key(id1s[i]!, op.type, id2s[i]!)));
}

async function updateObject(client: pg.ClientBase, id: ObjectId, changes: Record<string, unknown>, updatedTime: number): Promise<true> {
  // The row lock keeps a concurrent update from merging into data this one is about to replace.
  const { rows } = await run<{ data: Record<string, unknown> }>(client, statements.selectObjectDataForUpdate, [id]);
  if (rows.length === 0) throw new Error(`updateObject: object ${id} does not exist`);
  await run(client, statements.updateObject, [JSON.stringify(mergeData(rows[0]!.data, changes)), updatedTime, id]);
  return true;
}

/** A stretch of setDeclaredKey ops as one statement, the last op naming a (type, key) winning. */
async function setDeclaredKeys(client: pg.ClientBase, ops: readonly WriteOp[], start: number, end: number, results: Results): Promise<void> {
  const latest = new Map<string, [string, string, ObjectId]>();
  for (let index = start; index < end; index += 1) {
    const op = ops[index] as Extract<WriteOp, { op: 'setDeclaredKey' }>;
    latest.set(JSON.stringify([op.type, op.key]), [op.type, op.key, resolveId(op.id, index, results)]);
    results[index] = true;
  }
  const rows = [...latest.values()];
  await run(client, statements.upsertDeclaredKeys, [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])]);
}

/** A stretch of adjustCount ops as one statement: the deltas of each count summed first. */
async function adjustCounts(client: pg.ClientBase, ops: readonly WriteOp[], start: number, end: number, results: Results): Promise<void> {
  const sums = new Map<string, [ObjectId, string, number]>();
  for (let index = start; index < end; index += 1) {
    const op = ops[index] as Extract<WriteOp, { op: 'adjustCount' }>;
    const id1 = resolveId(op.id1, index, results);
    const key = JSON.stringify([id1, op.type]);
    sums.set(key, [id1, op.type, (sums.get(key)?.[2] ?? 0) + op.delta]);
    results[index] = true;
  }
  const rows = [...sums.values()];
  await run(client, statements.adjustCounts, [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])]);
}

/**
 * Deletes objects as deleteObject does one, all at once: the end state is the same as deleting
 * them one by one, since every association touching any of them goes and the other lists' counts
 * drop by exactly the associations removed from them. Answers how many objects existed.
 */
async function deleteObjects(client: pg.ClientBase, ids: readonly ObjectId[]): Promise<number> {
  // Outgoing first, so an association between two of them (or a self-association) is not
  // counted as removed from a list that is itself going.
  await run(client, statements.deleteOutgoing, [ids]);
  await run(client, statements.deleteKeysOf, [ids]);
  const { rows } = await run<{ deleted: number }>(client, statements.deleteIncomingAndObjects, [ids]);
  return rows[0]!.deleted;
}

/**
 * The batch's own add to the list has updated its count row, which stays locked until the commit:
 * a simultaneous batch adding to the same list waits there, then adds to the committed count, so
 * each check sees every add committed before it.
 */
async function checkCount(client: pg.ClientBase, op: Extract<WriteOp, { op: 'checkCount' }>): Promise<true> {
  const { rows } = await run<{ count: number }>(client, statements.selectCount, [op.id1, op.type]);
  if ((rows[0]?.count ?? 0) > op.max) throw new CountLimitError(op.type, op.id1, op.max);
  return true;
}

/** The values of upsertTokens, each hash once (the last one given winning). */
export function tokenValues(tokens: readonly TokenRecord[]): unknown[] {
  const latest = [...new Map(tokens.map((token) => [token.hash, token])).values()];
  return columnArrays(
    latest,
    (t) => t.hash,
    (t) => t.kind,
    (t) => t.appId,
    (t) => t.userId,
    (t) => JSON.stringify(t.scopes),
    (t) => t.issuedAt,
    (t) => t.expiresAt,
    (t) => t.pageId ?? null,
  );
}

async function deleteUser(client: pg.ClientBase, id: ObjectId, cascade: readonly string[]): Promise<boolean> {
  const { rows } = await run<{ id: number }>(client, statements.selectBelongings, [id, cascade]);
  if (rows.length > 0) await deleteObjects(client, rows.map((row) => row.id));
  await run(client, statements.deleteAccessOfUser, [id]);
  return (await deleteObjects(client, [id])) > 0;
}
