import type { ObjectId } from '../../ids.js';
import { IdTakenError, SEQUENCE_ID_LIMIT, type Grant, type TokenRecord } from '../auth-store.js';
import { mergeData } from '../write-ops.js';
import type { Statements } from './statements.js';

/**
 * The row writes that the graph's write batches and the auth records both make: objects, their
 * removal with everything that points at them, tokens and grants. Each runs inside its caller's
 * transaction.
 */
export class SqliteRowWrites {
  constructor(private readonly statements: Statements) {}

  insertObject(type: string, owner: ObjectId | null, createdTime: number, updatedTime: number, data: Record<string, unknown>): ObjectId {
    const info = this.statements.insertObject.run(type, owner, createdTime, updatedTime, JSON.stringify(data));
    return Number(info.lastInsertRowid);
  }

  /**
   * An object under an id the caller chose (at or above SEQUENCE_ID_LIMIT). SQLite raises the
   * AUTOINCREMENT mark to any id inserted, so the mark is put back: the sequence stays where it was.
   */
  insertFixedObject(id: ObjectId, type: string, createdTime: number, data: Record<string, unknown>): ObjectId {
    if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) throw new RangeError(`A fixed id must be at least ${SEQUENCE_ID_LIMIT}, not ${id}`);
    if (this.statements.selectIdTaken.get(id, id) !== undefined) throw new IdTakenError(id);
    const mark = this.statements.selectSequence.get()?.seq ?? 0;
    this.statements.insertFixedObject.run(id, type, createdTime, createdTime, JSON.stringify(data));
    this.statements.resetSequence.run(mark);
    return id;
  }

  updateObject(id: ObjectId, changes: Record<string, unknown>, updatedTime: number): true {
    const current = this.statements.selectObjectData.get(id);
    if (current === undefined) throw new Error(`updateObject: object ${id} does not exist`);
    const merged = mergeData(JSON.parse(current.data) as Record<string, unknown>, changes);
    this.statements.updateObject.run(JSON.stringify(merged), updatedTime, id);
    return true;
  }

  deleteObject(id: ObjectId): boolean {
    const s = this.statements;
    // Outgoing first, so a self-association is gone before the incoming ones are counted.
    s.deleteOutgoing.run(id);
    s.deleteCountsOf.run(id);
    for (const { id1, type, removed } of s.selectIncoming.all(id)) s.decrementCount.run(removed, id1, type);
    s.deleteIncoming.run(id);
    s.deleteKeysOf.run(id);
    return s.deleteObject.run(id).changes > 0;
  }

  /** The deleteUser op: the person, what they own and what it lists under `cascade`, and their auth records. */
  deleteUser(id: ObjectId, cascade: readonly string[]): boolean {
    const s = this.statements;
    const owned = s.selectOwned.all(id).map((row) => row.id);
    const types = JSON.stringify(cascade);
    const dependents = owned.flatMap((objectId) => s.selectAssociatedIds.all(objectId, types).map((row) => row.id2));
    for (const objectId of [...dependents, ...owned]) this.deleteObject(objectId);
    s.deleteGrantsOfUser.run(id);
    s.deleteTokensOfUser.run(id);
    s.deleteRevokedTokensOfUser.run(id);
    s.deleteCredentialsOfUser.run(id);
    s.deleteAuthCodesOfUser.run(id);
    return this.deleteObject(id);
  }

  putToken(token: TokenRecord): void {
    this.statements.upsertToken.run(
      token.hash,
      token.kind,
      token.appId,
      token.userId,
      JSON.stringify(token.scopes),
      token.issuedAt,
      token.expiresAt,
      token.pageId ?? null,
    );
  }

  replaceUserGrants(appId: ObjectId, userId: ObjectId, grants: readonly Grant[]): void {
    this.statements.deleteGrants.run(appId, userId);
    for (const grant of grants) this.statements.insertGrant.run(appId, userId, grant.scope, grant.status);
  }
}
