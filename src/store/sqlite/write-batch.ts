import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';
import { CountLimitError, filledData, resolveId, type IdOrRef, type WriteOp } from '../write-ops.js';
import type { SqliteDatabase } from './database.js';

/**
 * The write batches of the SQLite store: every op of a batch in one transaction, which takes the
 * write lock up front (run it with `.immediate`): a deferred transaction that reads first could
 * fail to upgrade when another process committed meanwhile, whatever the busy timeout.
 */
export function sqliteWriteBatches(database: SqliteDatabase): Database.Transaction<(ops: readonly WriteOp[]) => Array<ObjectId | boolean>> {
  return database.db.transaction((ops: readonly WriteOp[]) => {
    const results: Array<ObjectId | boolean> = [];
    ops.forEach((op, index) => results.push(applyOp(database, op, index, results)));
    return results;
  });
}

function applyOp(database: SqliteDatabase, op: WriteOp, index: number, results: ReadonlyArray<ObjectId | boolean>): ObjectId | boolean {
  const { statements: s, writes } = database;
  const resolve = (id: IdOrRef): ObjectId => resolveId(id, index, results);
  switch (op.op) {
    case 'createObject': {
      const { type, owner, createdTime, updatedTime } = op.object;
      return writes.insertObject(type, owner, createdTime, updatedTime ?? createdTime, filledData(op, index, results));
    }
    case 'updateObject':
      return writes.updateObject(op.id, op.data, op.updatedTime);
    case 'deleteObject':
      return writes.deleteObject(op.id);
    case 'deleteUser':
      return writes.deleteUser(op.id, op.cascade);
    case 'addAssoc': {
      const id1 = resolve(op.id1);
      const data = op.data === undefined || op.data === null ? null : JSON.stringify(op.data);
      const inserted = s.insertAssociation.run(id1, op.type, resolve(op.id2), op.time, data).changes > 0;
      if (inserted) s.incrementCount.run(id1, op.type);
      return inserted;
    }
    case 'removeAssoc': {
      const removed = s.deleteAssociation.run(op.id1, op.type, op.id2).changes > 0;
      if (removed) s.decrementCount.run(1, op.id1, op.type);
      return removed;
    }
    // The batch holds the write lock from its start, so no other batch can change the count before it commits.
    case 'checkCount': {
      const count = s.selectCount.get(op.id1, op.type)?.count ?? 0;
      if (count > op.max) throw new CountLimitError(op.type, op.id1, op.max);
      return true;
    }
    case 'setCredentials':
      s.upsertCredentials.run(resolve(op.userId), op.email.toLowerCase(), op.passwordHash);
      return true;
    case 'setGrants':
      writes.replaceUserGrants(op.appId, resolve(op.userId), op.grants);
      return true;
    case 'saveToken':
      writes.putToken({ ...op.token, userId: op.token.userId === null ? null : resolve(op.token.userId) });
      return true;
    case 'recordChange':
      database.webhooks.recordChange(resolve(op.subject), op.field, op.time, op.appId ?? null);
      return true;
    case 'adjustCount':
      s.adjustCount.run(resolve(op.id1), op.type, op.delta);
      return true;
    case 'setDeclaredKey':
      s.upsertDeclaredKey.run(op.type, op.key, resolve(op.id));
      return true;
    default:
      throw new Error(`Unknown write op at index ${index}: ${JSON.stringify(op)}`);
  }
}
