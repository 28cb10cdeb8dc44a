import type Database from 'better-sqlite3';
import type { Association, ObjectsWithGrants, PagesWithObjects, StoredObject } from '../graph-store.js';
import { type Grant, type TokenRecord, IdTakenError, SEQUENCE_ID_LIMIT } from '../auth-store.js';
import type { PageRequest, Through } from '../page-request.js';
import type { ObjectId } from '../../ids.js';
import { SqliteWebhooks } from './webhook-queue.js';
import { filledData, mergeData, resolveId, type IdOrRef, type WriteOp, type WriteResult, CountLimitError } from '../write-ops.js';
import { SqliteSearch } from './search.js';
import type { SearchableType, SearchRequest } from '../search.js';
import { zeroFilledCounts } from '../store-results.js';
import { DecodedData } from '../decoded-data.js';
import { prepareStatements, type Statements } from './statements.js';
import { pageParams, pageSql, resumeParams, toAssociation, type AssociationRow, type PageParams, type PageShape } from './page-query.js';

/**
 * The graph half of the SQLite store: objects, associations and their counts, pages, search and
 * the write batches, over the connection and statements every part of the store shares.
 */
export abstract class SqliteGraphStore {
  /** The connection itself, for diagnostics and tests; everything else goes through Store. */
  readonly db: Database.Database;
  private readonly pageStatements = new Map<string, Database.Statement<[PageParams], AssociationRow>>();
  protected readonly statements: Statements;
  private readonly decodedData = new DecodedData();
  protected readonly inSnapshot: (work: () => void) => void;
  // Writes take the write lock up front (BEGIN IMMEDIATE): a deferred transaction that reads
  // first could fail to upgrade when another process committed meanwhile, whatever busy_timeout.
  private readonly applyOps: Database.Transaction<(ops: readonly WriteOp[]) => Array<ObjectId | boolean>>;
  readonly webhooks: SqliteWebhooks;
  private readonly fullText: SqliteSearch;

  constructor(db: Database.Database) {
    this.db = db;
    this.statements = prepareStatements(db);
    this.webhooks = new SqliteWebhooks(db);
    this.fullText = new SqliteSearch(db);
    // Reads of several lists share one transaction so they see one snapshot of the database.
    this.inSnapshot = db.transaction((work: () => void) => work());
    this.applyOps = db.transaction((ops: readonly WriteOp[]) => {
      const results: Array<ObjectId | boolean> = [];
      ops.forEach((op, index) => results.push(this.applyOp(op, index, results)));
      return results;
    });
  }

  async getObjects(ids: readonly ObjectId[]): Promise<Map<ObjectId, StoredObject>> {
    return this.readObjects(ids);
  }

  async getObjectsWithGrants(ids: readonly ObjectId[], appId: ObjectId): Promise<ObjectsWithGrants> {
    let result: ObjectsWithGrants | undefined;
    this.inSnapshot(() => {
      const objects = this.readObjects(ids);
      result = { objects, grantedScopes: this.readGrantedScopes(appId, objects, undefined) };
    });
    return result!;
  }

  private readObjects(ids: readonly ObjectId[]): Map<ObjectId, StoredObject> {
    const objects = new Map<ObjectId, StoredObject>();
    if (ids.length === 0) return objects;
    const rows = ids.length === 1 ? [this.statements.selectObject.get(ids[0]!)] : this.statements.selectObjects.all(JSON.stringify(ids));
    for (const row of rows) {
      if (row === undefined) continue;
      const [id, type, owner, createdTime, updatedTime, data] = row;
      objects.set(id, { id, type, owner, createdTime, updatedTime, data: this.decodedData.decode(id, data) });
    }
    return objects;
  }

  async getPages(request: PageRequest): Promise<Map<ObjectId, Association[]>> {
    let pages: Map<ObjectId, Association[]> | undefined;
    this.inSnapshot(() => {
      pages = this.readPages(request);
    });
    return pages!;
  }

  /**
   * The pages of the request; with `objects`, also the object of each id2 listed, put there. The
   * caller holds the snapshot they are read in.
   */
  private readPages(request: PageRequest, objects?: Map<ObjectId, StoredObject>): Map<ObjectId, Association[]> {
    const pages = new Map<ObjectId, Association[]>();
    if (request.id1s.length === 0) return pages;
    if (!Number.isInteger(request.limit) || request.limit < 0) {
      throw new RangeError(`Page limit must be a non-negative integer, got ${request.limit}`);
    }
    const shape: PageShape = {
      after: request.after !== undefined || (request.resumeAt !== undefined && request.before === undefined),
      before: request.before !== undefined,
      since: request.since !== undefined,
      until: request.until !== undefined,
      granted: request.id2GrantedTo !== undefined,
      oldest: request.order === 'oldest',
      objects: objects !== undefined,
    };
    const statement = this.pageStatement(shape);
    const params = pageParams(request);
    // Every object a scan brought along; a merged page keeps those of the rows it shows.
    const scanned = new Map<ObjectId, StoredObject>();
    const scan = (owner: ObjectId): Association[] => {
      params.id1 = owner;
      return statement.all(params).map(([id2, time, data, type, objectOwner, createdTime, updatedTime, objectData]) => {
        if (typeof type === 'string' && !scanned.has(id2)) {
          const decoded = this.decodedData.decode(id2, objectData!);
          scanned.set(id2, { id: id2, type, owner: objectOwner!, createdTime: createdTime!, updatedTime: updatedTime!, data: decoded });
        }
        return toAssociation(owner, request.type, id2, time, data);
      });
    };
    for (const id1 of request.id1s) {
      resumeParams(params, request, id1);
      const rows = request.through === undefined ? scan(id1) : this.mergedScan(id1, request.through, shape, request.limit, scan);
      // A `before` page is read backwards from the position, then turned to the list's order.
      if (shape.before) rows.reverse();
      pages.set(id1, rows);
      if (objects !== undefined) for (const row of rows) if (scanned.has(row.id2)) objects.set(row.id2, scanned.get(row.id2)!);
    }
    return pages;
  }

  /**
   * The page of a list merged from id1's own and from each node id1 lists under `through`: one
   * bounded range scan per owner, then the `limit` rows nearest the position across all of them,
   * so the cost follows the number of owners and the page size, never the size of their lists.
   */
  private mergedScan(
    id1: ObjectId,
    through: Through,
    shape: PageShape,
    limit: number,
    scan: (owner: ObjectId) => Association[],
  ): Association[] {
    const listed = through.grantedTo
      ? this.statements.selectListedGranted.all(id1, through.type, through.grantedTo.appId, through.grantedTo.scope)
      : this.statements.selectListed.all(id1, through.type);
    const owners = [id1, ...listed.map((row) => row.id2)];
    // Rows come in scan order: newest first, unless the list reads oldest first; either turned round for a `before` page.
    const descending = shape.oldest === shape.before;
    const rows = owners.flatMap(scan);
    rows.sort((a, b) => (descending ? b.time - a.time || b.id2 - a.id2 : a.time - b.time || a.id2 - b.id2));
    return rows.slice(0, limit);
  }

  async getPagesWithObjects(request: PageRequest, grantsKnown?: (person: ObjectId) => boolean): Promise<PagesWithObjects> {
    // In process, separate reads cost no more than one; reading them in one snapshot keeps them consistent.
    let result: PagesWithObjects | undefined;
    this.inSnapshot(() => {
      const objects = new Map<ObjectId, StoredObject>();
      const pages = this.readPages(request, objects);
      const grantedScopes = request.grantsTo === undefined ? new Map<number, string[]>() : this.readGrantedScopes(request.grantsTo, objects, grantsKnown);
      result = { pages, objects, grantedScopes };
    });
    return result!;
  }

  /** The permissions each of the objects, and each of their owners, granted the app; none read for people already known. */
  private readGrantedScopes(
    appId: ObjectId,
    objects: ReadonlyMap<ObjectId, StoredObject>,
    known: ((person: ObjectId) => boolean) | undefined,
  ): Map<ObjectId, string[]> {
    const people = new Set<ObjectId>();
    for (const object of objects.values()) {
      people.add(object.id);
      if (object.owner !== null) people.add(object.owner);
    }
    const asked = known === undefined ? [...people] : [...people].filter((person) => !known(person));
    const granted = new Map<ObjectId, string[]>(asked.map((person) => [person, []]));
    if (asked.length === 0) return granted;
    for (const { user_id, scope } of this.statements.selectGrantedAmong.all(appId, JSON.stringify(asked))) granted.get(user_id)!.push(scope);
    return granted;
  }

  async declareSearchable(types: readonly SearchableType[]): Promise<void> {
    this.fullText.declare(types);
  }

  async search(request: SearchRequest): Promise<StoredObject[]> {
    return this.fullText.search(request);
  }

  async getCounts(type: string, id1s: readonly ObjectId[]): Promise<Map<ObjectId, number>> {
    if (id1s.length === 0) return new Map();
    return zeroFilledCounts(id1s, this.statements.selectCounts.all(type, JSON.stringify(id1s)));
  }

  async getExisting(type: string, pairs: ReadonlyArray<readonly [ObjectId, ObjectId]>): Promise<Set<string>> {
    const existing = new Set<string>();
    if (pairs.length === 0) return existing;
    this.inSnapshot(() => {
      for (const [id1, id2] of pairs) {
        if (this.statements.selectAssociationExists.get(id1, type, id2) !== undefined) existing.add(`${id1}:${id2}`);
      }
    });
    return existing;
  }

  async write(ops: readonly WriteOp[]): Promise<WriteResult> {
    return { results: this.applyOps.immediate(ops) };
  }

  private applyOp(op: WriteOp, index: number, results: ReadonlyArray<ObjectId | boolean>): ObjectId | boolean {
    const resolve = (id: IdOrRef): ObjectId => resolveId(id, index, results);
    switch (op.op) {
      case 'createObject': {
        const { type, owner, createdTime, updatedTime } = op.object;
        return this.insertObject(type, owner, createdTime, updatedTime ?? createdTime, filledData(op, index, results));
      }
      case 'updateObject':
        return this.updateObject(op.id, op.data, op.updatedTime);
      case 'deleteObject':
        return this.deleteObject(op.id);
      case 'deleteUser':
        return this.deleteUser(op.id, op.cascade);
      case 'addAssoc': {
        const id1 = resolve(op.id1);
        const data = op.data === undefined || op.data === null ? null : JSON.stringify(op.data);
        const inserted = this.statements.insertAssociation.run(id1, op.type, resolve(op.id2), op.time, data).changes > 0;
        if (inserted) this.statements.incrementCount.run(id1, op.type);
        return inserted;
      }
      case 'removeAssoc': {
        const removed = this.statements.deleteAssociation.run(op.id1, op.type, op.id2).changes > 0;
        if (removed) this.statements.decrementCount.run(1, op.id1, op.type);
        return removed;
      }
      // The batch holds the write lock from its start, so no other batch can change the count before it commits.
      case 'checkCount': {
        const count = this.statements.selectCount.get(op.id1, op.type)?.count ?? 0;
        if (count > op.max) throw new CountLimitError(op.type, op.id1, op.max);
        return true;
      }
      case 'setCredentials':
        this.statements.upsertCredentials.run(resolve(op.userId), op.email.toLowerCase(), op.passwordHash);
        return true;
      case 'setGrants':
        this.replaceUserGrants(op.appId, resolve(op.userId), op.grants);
        return true;
      case 'saveToken':
        this.putToken({ ...op.token, userId: op.token.userId === null ? null : resolve(op.token.userId) });
        return true;
      case 'recordChange':
        this.webhooks.recordChange(resolve(op.subject), op.field, op.time, op.appId ?? null);
        return true;
      case 'adjustCount':
        this.statements.adjustCount.run(resolve(op.id1), op.type, op.delta);
        return true;
      case 'setDeclaredKey':
        this.statements.upsertDeclaredKey.run(op.type, op.key, resolve(op.id));
        return true;
      default:
        throw new Error(`Unknown write op at index ${index}: ${JSON.stringify(op)}`);
    }
  }

  protected putToken(token: TokenRecord): void {
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

  protected replaceUserGrants(appId: ObjectId, userId: ObjectId, grants: readonly Grant[]): void {
    this.statements.deleteGrants.run(appId, userId);
    for (const grant of grants) this.statements.insertGrant.run(appId, userId, grant.scope, grant.status);
  }

  /**
   * An object under an id the caller chose (at or above SEQUENCE_ID_LIMIT). SQLite raises the
   * AUTOINCREMENT mark to any id inserted, so the mark is put back: the sequence stays where it was.
   */
  protected insertFixedObject(id: ObjectId, type: string, createdTime: number, data: Record<string, unknown>): ObjectId {
    if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) throw new RangeError(`A fixed id must be at least ${SEQUENCE_ID_LIMIT}, not ${id}`);
    if (this.statements.selectIdTaken.get(id, id) !== undefined) throw new IdTakenError(id);
    const mark = this.statements.selectSequence.get()?.seq ?? 0;
    this.statements.insertFixedObject.run(id, type, createdTime, createdTime, JSON.stringify(data));
    this.statements.resetSequence.run(mark);
    return id;
  }

  protected insertObject(
    type: string,
    owner: ObjectId | null,
    createdTime: number,
    updatedTime: number,
    data: Record<string, unknown>,
  ): ObjectId {
    const info = this.statements.insertObject.run(type, owner, createdTime, updatedTime, JSON.stringify(data));
    return Number(info.lastInsertRowid);
  }

  protected updateObject(id: ObjectId, changes: Record<string, unknown>, updatedTime: number): true {
    const current = this.statements.selectObjectData.get(id);
    if (current === undefined) throw new Error(`updateObject: object ${id} does not exist`);
    const merged = mergeData(JSON.parse(current.data) as Record<string, unknown>, changes);
    this.statements.updateObject.run(JSON.stringify(merged), updatedTime, id);
    return true;
  }

  protected deleteObject(id: ObjectId): boolean {
    const s = this.statements;
    // Outgoing first, so a self-association is gone before the incoming ones are counted.
    s.deleteOutgoing.run(id);
    s.deleteCountsOf.run(id);
    for (const { id1, type, removed } of s.selectIncoming.all(id)) s.decrementCount.run(removed, id1, type);
    s.deleteIncoming.run(id);
    s.deleteKeysOf.run(id);
    return s.deleteObject.run(id).changes > 0;
  }

  private deleteUser(id: ObjectId, cascade: readonly string[]): boolean {
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

  private pageStatement(shape: PageShape): Database.Statement<[PageParams], AssociationRow> {
    const key = Object.entries(shape)
      .filter(([, present]) => present)
      .map(([name]) => name)
      .join('+');
    let statement = this.pageStatements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare<[PageParams], AssociationRow>(pageSql(shape)).raw(true);
      this.pageStatements.set(key, statement);
    }
    return statement;
  }
}
