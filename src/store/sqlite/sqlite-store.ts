import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import type {
  AppRecord,
  Association,
  AuthCode,
  Credentials,
  Grant,
  GrantUpdateOptions,
  GrantStatus,
  UserGrants,
  IdOrRef,
  NewApp,
  ObjectId,
  PageRequest,
  Through,
  RevokedToken,
  SchemaVersionRecord,
  Store,
  StoredObject,
  TokenRecord,
  WriteOp,
  WriteResult,
} from '../store.js';
import { CountLimitError, IdTakenError, SEQUENCE_ID_LIMIT, type AppChanges } from '../store.js';
import { prepareAppStatements } from './app-statements.js';
import { migrate } from './migrations.js';
import { SqliteWebhooks } from './webhook-queue.js';
import { changedScopes, filledData, mergeData, resolveId } from '../write-ops.js';
import type { RecordKey, RecordKind, StoreRecord } from '../records.js';
import { SqliteRecords } from './records.js';
import { SqliteSnapshots } from './snapshots.js';
import { SqliteCallCounts } from './call-counts.js';
import { SqliteSearch } from './search.js';
import type { SearchableType, SearchRequest } from '../search.js';
import type { SnapshotInfo } from '../snapshots.js';
import { appData, createdAppRecord, grantsByUser, zeroFilledCounts } from '../store-results.js';
import { DecodedData } from '../decoded-data.js';
import {
  toAppRecord,
  toAuthCode,
  toCredentials,
  toStoredObject,
  toTokenRecord,
  schemaVersionOf,
  SCHEMA_VERSION_COLUMNS,
  type SchemaVersionRow,
  type AppRow,
  type AuthCodeRow,
  type CredentialsRow,
  type ObjectRow,
  type TokenRow,
} from '../rows.js';

/** Page cache of a bulk load, in KiB (negative: a size rather than a page count); the index builds sort in it. */
const BULK_CACHE_KIB = -128 * 1024;
/** How long a statement waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating and migrating if needed) the SQLite database at `path`. WAL lets readers run
 * beside the writer; synchronous=FULL makes every acknowledged write survive a crash or power
 * loss, not just a killed process.
 */
export function openSqliteStore(path: string): SqliteStore {
  createPrivately(path);
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return new SqliteStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The database holds password hashes, app secrets and the server's keys, so a new file is
 * readable by its owner only. SQLite gives the -wal and -shm files the mode of the database
 * file, so creating the file first (empty, which SQLite takes as a new database) covers all three.
 */
function createPrivately(path: string): void {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    // An existing file keeps its mode; a missing directory is reported by SQLite as usual.
    if (!['EEXIST', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

interface AssociationRow {
  id1: number;
  type: string;
  id2: number;
  time: number;
  data: string | null;
}

interface RevokedTokenRow {
  hash: string;
  app_id: number;
  user_id: number;
  expires_at: number;
}

interface GrantRow {
  user_id: number;
  scope: string;
  status: GrantStatus;
}

/** Which optional conditions a page query carries; each combination is one prepared statement. */
interface PageShape {
  after: boolean;
  before: boolean;
  since: boolean;
  until: boolean;
  granted: boolean;
  /** Granted, or not a person at all. */
  grantedOrNotPerson: boolean;
  oldest: boolean;
}

type PageParams = Record<string, number | string>;

const APP_COLUMNS = `a.id, json_extract(o.data, '$.name') AS name, a.secret, a.id_key, a.id_tag, a.require_proof,
  a.business_id, a.created_time, a.redirect_uris, json_extract(o.data, '$.api_version') AS api_version`;

export class SqliteStore implements Store {
  /** The connection itself, for diagnostics and tests; everything else goes through Store. */
  readonly db: Database.Database;
  private readonly pageStatements = new Map<string, Database.Statement<[PageParams], AssociationRow>>();
  private readonly statements: Statements;
  private readonly decodedData = new DecodedData();
  private readonly inSnapshot: (work: () => void) => void;
  // Writes take the write lock up front (BEGIN IMMEDIATE): a deferred transaction that reads
  // first could fail to upgrade when another process committed meanwhile, whatever busy_timeout.
  private readonly applyOps: Database.Transaction<(ops: readonly WriteOp[]) => Array<ObjectId | boolean>>;
  private readonly insertApp: Database.Transaction<(app: NewApp) => ObjectId>;
  private readonly replaceGrants: Database.Transaction<(appId: ObjectId, entries: readonly UserGrants[]) => void>;
  private readonly changeGrants: Database.Transaction<
    (appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options: GrantUpdateOptions) => Grant[]
  >;
  private readonly moveTokensToRevoked: Database.Transaction<(appId: ObjectId, userId: ObjectId, now: number) => void>;
  private readonly putTokens: Database.Transaction<(tokens: readonly TokenRecord[]) => void>;
  private readonly appStatements: ReturnType<typeof prepareAppStatements>;
  private readonly changeApp: Database.Transaction<(id: ObjectId, changes: AppChanges, now: number) => boolean>;
  private readonly removeApp: Database.Transaction<(id: ObjectId, now: number) => boolean>;
  private readonly putAuthCodes: Database.Transaction<(codes: readonly AuthCode[]) => void>;
  private readonly records: SqliteRecords;
  private readonly callCounts: SqliteCallCounts;
  private readonly loadInTransaction: Database.Transaction<(records: readonly StoreRecord[]) => void>;
  readonly webhooks: SqliteWebhooks;
  private readonly fullText: SqliteSearch;

  constructor(db: Database.Database) {
    this.db = db;
    this.statements = prepareStatements(db);
    this.webhooks = new SqliteWebhooks(db);
    this.fullText = new SqliteSearch(db);
    this.appStatements = prepareAppStatements(db);
    this.changeApp = db.transaction((id: ObjectId, changes: AppChanges, now: number) => {
      const a = this.appStatements;
      if (a.selectAppExists.get(id) === undefined) return false;
      const redirectUris = changes.redirectUris === undefined ? null : JSON.stringify(changes.redirectUris);
      const requireProof = changes.requireProof === undefined ? null : changes.requireProof ? 1 : 0;
      const business = changes.businessId !== undefined;
      a.updateApp.run(changes.secret ?? null, requireProof, business ? 1 : 0, changes.businessId ?? null, redirectUris, id);
      if (changes.data !== undefined) this.updateObject(id, changes.data, now);
      return true;
    });
    this.removeApp = db.transaction((id: ObjectId, now: number) => {
      const a = this.appStatements;
      if (a.selectAppExists.get(id) === undefined) return false;
      a.revokeTokensOfApp.run(id);
      a.deleteTokensOfApp.run(id);
      a.deleteGrantsOfApp.run(id);
      a.deleteAuthCodesOfApp.run(id);
      a.deleteAppRow.run(id);
      this.deleteObject(id);
      a.insertDeletedApp.run(id, now);
      this.statements.deleteStaleRevokedTokens.run(now);
      return true;
    });
    // Reads of several lists share one transaction so they see one snapshot of the database.
    this.inSnapshot = db.transaction((work: () => void) => work());
    this.applyOps = db.transaction((ops: readonly WriteOp[]) => {
      const results: Array<ObjectId | boolean> = [];
      ops.forEach((op, index) => results.push(this.applyOp(op, index, results)));
      return results;
    });
    this.insertApp = db.transaction((app: NewApp) => {
      const id =
        app.id === undefined
          ? this.insertObject('application', null, app.createdTime, app.createdTime, appData(app))
          : this.insertFixedObject(app.id, 'application', app.createdTime, appData(app));
      this.statements.insertApp.run(
        id,
        app.secret,
        app.idKey,
        app.idTag ?? 0,
        app.requireProof ? 1 : 0,
        app.businessId ?? null,
        app.createdTime,
        JSON.stringify(app.redirectUris ?? []),
      );
      return id;
    });
    this.replaceGrants = db.transaction((appId: ObjectId, entries: readonly UserGrants[]) => {
      for (const { userId, grants } of entries) this.replaceUserGrants(appId, userId, grants);
    });
    this.changeGrants = db.transaction((appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options: GrantUpdateOptions) => {
      const grantsNow = () => this.statements.selectGrants.all(appId, JSON.stringify([userId])).map(({ scope, status }) => ({ scope, status }));
      const before = options.changesAt === undefined ? [] : grantsNow();
      for (const { scope, status } of changes) {
        if (options.onlyExisting) this.statements.updateGrantStatus.run(status, appId, userId, scope);
        else this.statements.insertGrant.run(appId, userId, scope, status);
      }
      const after = grantsNow();
      if (options.changesAt !== undefined) {
        for (const scope of changedScopes(before, after)) this.webhooks.recordChange(userId, scope, options.changesAt, appId);
      }
      return after;
    });
    this.moveTokensToRevoked = db.transaction((appId: ObjectId, userId: ObjectId, now: number) => {
      this.statements.deleteStaleRevokedTokens.run(now);
      this.statements.copyTokensToRevoked.run(appId, userId);
      this.statements.deleteTokens.run(appId, userId);
    });
    this.putTokens = db.transaction((tokens: readonly TokenRecord[]) => {
      for (const token of tokens) this.putToken(token);
    });
    this.putAuthCodes = db.transaction((codes: readonly AuthCode[]) => {
      for (const code of codes) {
        this.statements.insertAuthCode.run(code.hash, code.appId, code.userId, code.redirectUri, JSON.stringify(code.scopes), code.expiresAt);
      }
    });
    this.records = new SqliteRecords(db);
    this.callCounts = new SqliteCallCounts(db);
    this.loadInTransaction = db.transaction((records: readonly StoreRecord[]) => this.records.load(records));
  }

  async getObjects(ids: readonly ObjectId[]): Promise<Map<ObjectId, StoredObject>> {
    return this.readObjects(ids);
  }

  private readObjects(ids: readonly ObjectId[]): Map<ObjectId, StoredObject> {
    const objects = new Map<ObjectId, StoredObject>();
    if (ids.length === 0) return objects;
    for (const row of this.statements.selectObjects.all(JSON.stringify(ids))) {
      objects.set(row.id, toStoredObject(row, this.decodedData));
    }
    return objects;
  }

  async getPages(request: PageRequest): Promise<Map<ObjectId, Association[]>> {
    return this.readPages(request);
  }

  private readPages(request: PageRequest): Map<ObjectId, Association[]> {
    const pages = new Map<ObjectId, Association[]>();
    if (request.id1s.length === 0) return pages;
    if (!Number.isInteger(request.limit) || request.limit < 0) {
      throw new RangeError(`Page limit must be a non-negative integer, got ${request.limit}`);
    }
    const shape: PageShape = {
      after: request.after !== undefined,
      before: request.before !== undefined,
      since: request.since !== undefined,
      until: request.until !== undefined,
      granted: request.id2GrantedTo !== undefined,
      grantedOrNotPerson: request.id2GrantedTo?.personType !== undefined,
      oldest: request.order === 'oldest',
    };
    const statement = this.pageStatement(shape);
    const params = pageParams(request);
    const scan = (id1: ObjectId): AssociationRow[] => {
      params.id1 = id1;
      return statement.all(params);
    };
    this.inSnapshot(() => {
      for (const id1 of request.id1s) {
        const rows = request.through === undefined ? scan(id1) : this.mergedScan(id1, request.through, shape, request.limit, scan);
        // A `before` page is read backwards from the position, then turned to the list's order.
        if (shape.before) rows.reverse();
        pages.set(id1, rows.map(toAssociation));
      }
    });
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
    scan: (owner: ObjectId) => AssociationRow[],
  ): AssociationRow[] {
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

  async getPagesWithObjects(request: PageRequest): Promise<{ pages: Map<ObjectId, Association[]>; objects: Map<ObjectId, StoredObject> }> {
    // In process, two calls cost no more than one; reading both in one snapshot keeps them consistent.
    let result: { pages: Map<ObjectId, Association[]>; objects: Map<ObjectId, StoredObject> } | undefined;
    this.inSnapshot(() => {
      const pages = this.readPages(request);
      const ids = [...new Set([...pages.values()].flatMap((rows) => rows.map((row) => row.id2)))];
      result = { pages, objects: this.readObjects(ids) };
    });
    return result!;
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

  async createApp(app: NewApp): Promise<AppRecord> {
    return createdAppRecord(this.insertApp.immediate(app), app);
  }

  async getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>> {
    const apps = new Map<ObjectId, AppRecord>();
    if (ids.length === 0) return apps;
    for (const row of this.statements.selectApps.all(JSON.stringify(ids))) apps.set(row.id, toAppRecord(row));
    return apps;
  }

  async listApps(): Promise<AppRecord[]> {
    return this.statements.selectAllApps.all().map(toAppRecord);
  }

  async findAppsByIdTag(idTag: number): Promise<AppRecord[]> {
    return this.statements.selectAppsByIdTag.all(idTag).map(toAppRecord);
  }

  async updateApp(id: ObjectId, changes: AppChanges, now: number): Promise<AppRecord | undefined> {
    if (!this.changeApp.immediate(id, changes, now)) return undefined;
    return (await this.getApps([id])).get(id);
  }

  async deleteApp(id: ObjectId, now: number): Promise<boolean> {
    return this.removeApp.immediate(id, now);
  }

  async getDeletedApps(ids: readonly ObjectId[]): Promise<Set<ObjectId>> {
    if (ids.length === 0) return new Set();
    return new Set(this.appStatements.selectDeletedApps.all(JSON.stringify(ids)).map((row) => row.id));
  }


  async saveTokens(tokens: readonly TokenRecord[]): Promise<void> {
    if (tokens.length > 0) this.putTokens.immediate(tokens);
  }

  async findToken(hash: string): Promise<TokenRecord | undefined> {
    const row = this.statements.selectToken.get(hash);
    return row === undefined ? undefined : toTokenRecord(row);
  }

  async deleteTokens(appId: ObjectId, userId: ObjectId): Promise<void> {
    this.statements.deleteTokens.run(appId, userId);
  }

  async setGrants(appId: ObjectId, entries: readonly UserGrants[]): Promise<void> {
    this.replaceGrants.immediate(appId, entries);
  }

  async updateGrants(
    appId: ObjectId,
    userId: ObjectId,
    changes: readonly Grant[],
    options: GrantUpdateOptions = {},
  ): Promise<Grant[]> {
    return this.changeGrants.immediate(appId, userId, changes, options);
  }

  async revokeTokens(appId: ObjectId, userId: ObjectId, now: number): Promise<void> {
    this.moveTokensToRevoked.immediate(appId, userId, now);
  }

  async findRevokedToken(hash: string): Promise<RevokedToken | undefined> {
    const row = this.statements.selectRevokedToken.get(hash);
    return row === undefined ? undefined : { hash: row.hash, appId: row.app_id, userId: row.user_id, expiresAt: row.expires_at };
  }

  async getGrants(appId: ObjectId, userIds: readonly ObjectId[]): Promise<Map<ObjectId, Grant[]>> {
    if (userIds.length === 0) return new Map();
    return grantsByUser(this.statements.selectGrants.all(appId, JSON.stringify(userIds)));
  }

  async setCredentials(credentials: Credentials): Promise<void> {
    this.statements.upsertCredentials.run(credentials.userId, credentials.email.toLowerCase(), credentials.passwordHash);
  }

  async findCredentialsByEmail(email: string): Promise<Credentials | undefined> {
    const row = this.statements.selectCredentialsByEmail.get(email.toLowerCase());
    return row === undefined ? undefined : toCredentials(row);
  }

  async getCredentials(userId: ObjectId): Promise<Credentials | undefined> {
    const row = this.statements.selectCredentialsByUser.get(userId);
    return row === undefined ? undefined : toCredentials(row);
  }

  async saveAuthCodes(codes: readonly AuthCode[]): Promise<void> {
    if (codes.length > 0) this.putAuthCodes.immediate(codes);
  }

  async takeAuthCode(hash: string): Promise<AuthCode | undefined> {
    // DELETE … RETURNING is one statement, so two redemptions of one code cannot both win.
    const row = this.statements.deleteAuthCode.get(hash);
    return row === undefined ? undefined : toAuthCode(row);
  }

  async latestSchemaVersion(): Promise<SchemaVersionRecord | undefined> {
    const row = this.statements.selectLatestSchemaVersion.get();
    return row && schemaVersionOf(row);
  }

  async recordSchemaVersion(record: Omit<SchemaVersionRecord, 'version'>): Promise<SchemaVersionRecord> {
    const row = this.statements.insertSchemaVersion.get(record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime)!;
    return schemaVersionOf(row);
  }

  async findDeclaredIds(type: string, keys: readonly string[]): Promise<Map<string, ObjectId>> {
    if (keys.length === 0) return new Map();
    return new Map(this.statements.selectDeclaredIds.all(type, JSON.stringify(keys)).map((row) => [row.key, row.id]));
  }

  async getSetting(key: string): Promise<string | undefined> {
    return this.statements.selectSetting.get(key)?.value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    this.statements.upsertSetting.run(key, value);
  }

  async initSetting(key: string, value: string): Promise<string> {
    return this.statements.insertSettingIfAbsent.get(key, value)?.value ?? this.statements.selectSetting.get(key)!.value;
  }

  async scanRecords(kind: RecordKind, after: RecordKey | undefined, limit: number): Promise<StoreRecord[]> {
    return this.records.scan(kind, after, limit);
  }

  async countRecords(kind: RecordKind): Promise<number> {
    return this.records.count(kind);
  }

  async loadRecords(records: readonly StoreRecord[]): Promise<void> {
    this.loadInTransaction.immediate(records);
  }

  async countCalls(subjects: readonly string[], minute: number, since: number): Promise<Map<string, number>> {
    return this.callCounts.countCalls(subjects, minute, since);
  }

  async countAppUsers(appId: ObjectId): Promise<number> {
    return this.callCounts.countAppUsers(appId);
  }

  async saveSnapshot(name: string, createdTime: number): Promise<void> {
    new SqliteSnapshots(this.db).save(name, createdTime);
  }

  async restoreSnapshot(name: string): Promise<boolean> {
    return new SqliteSnapshots(this.db).restore(name);
  }

  async listSnapshots(): Promise<SnapshotInfo[]> {
    return new SqliteSnapshots(this.db).list();
  }

  async deleteSnapshot(name: string): Promise<boolean> {
    return new SqliteSnapshots(this.db).delete(name);
  }

  async bulkLoad(fill: (load: (records: readonly StoreRecord[]) => Promise<void>) => Promise<void>): Promise<void> {
    // Indexes with SQL of their own; those behind primary keys and UNIQUE constraints stay.
    const indexes = this.db
      .prepare<[], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
      .all();
    for (const { name } of indexes) this.db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
    // Each load is durable once the whole import is: a crash midway leaves a store to discard anyway.
    this.db.pragma('synchronous = OFF');
    const cacheSize = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma(`cache_size = ${BULK_CACHE_KIB}`);
    try {
      await fill((records) => this.loadRecords(records));
    } finally {
      for (const { sql } of indexes) this.db.exec(sql);
      this.db.pragma(`cache_size = ${cacheSize}`);
      this.db.pragma('synchronous = FULL');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
  }

  async authVersion(): Promise<number> {
    // The auth tables' triggers move it on in the transaction of each change, made by any process.
    return this.statements.selectAuthVersion.get()!.version;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
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

  private putToken(token: TokenRecord): void {
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

  private replaceUserGrants(appId: ObjectId, userId: ObjectId, grants: readonly Grant[]): void {
    this.statements.deleteGrants.run(appId, userId);
    for (const grant of grants) this.statements.insertGrant.run(appId, userId, grant.scope, grant.status);
  }

  /**
   * An object under an id the caller chose (at or above SEQUENCE_ID_LIMIT). SQLite raises the
   * AUTOINCREMENT mark to any id inserted, so the mark is put back: the sequence stays where it was.
   */
  private insertFixedObject(id: ObjectId, type: string, createdTime: number, data: Record<string, unknown>): ObjectId {
    if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) throw new RangeError(`A fixed id must be at least ${SEQUENCE_ID_LIMIT}, not ${id}`);
    if (this.statements.selectIdTaken.get(id, id) !== undefined) throw new IdTakenError(id);
    const mark = this.statements.selectSequence.get()?.seq ?? 0;
    this.statements.insertFixedObject.run(id, type, createdTime, createdTime, JSON.stringify(data));
    this.statements.resetSequence.run(mark);
    return id;
  }

  private insertObject(
    type: string,
    owner: ObjectId | null,
    createdTime: number,
    updatedTime: number,
    data: Record<string, unknown>,
  ): ObjectId {
    const info = this.statements.insertObject.run(type, owner, createdTime, updatedTime, JSON.stringify(data));
    return Number(info.lastInsertRowid);
  }

  private updateObject(id: ObjectId, changes: Record<string, unknown>, updatedTime: number): true {
    const current = this.statements.selectObjectData.get(id);
    if (current === undefined) throw new Error(`updateObject: object ${id} does not exist`);
    const merged = mergeData(JSON.parse(current.data) as Record<string, unknown>, changes);
    this.statements.updateObject.run(JSON.stringify(merged), updatedTime, id);
    return true;
  }

  private deleteObject(id: ObjectId): boolean {
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
      statement = this.db.prepare<[PageParams], AssociationRow>(pageSql(shape));
      this.pageStatements.set(key, statement);
    }
    return statement;
  }
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database.Database) {
  return {
    selectObjects: db.prepare<[string], ObjectRow>(
      `SELECT id, type, owner, created_time, updated_time, data FROM objects
       WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    selectObjectData: db.prepare<[ObjectId], { data: string }>('SELECT data FROM objects WHERE id = ?'),
    // The id is the sequence's next, named explicitly: SQLite's own choice would follow the
    // largest id present, which may be a fixed app id far above the sequence.
    insertObject: db.prepare<[string, ObjectId | null, number, number, string]>(
      `INSERT INTO objects (id, type, owner, created_time, updated_time, data)
       VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'objects'), 0) + 1, ?, ?, ?, ?, ?)`,
    ),
    insertFixedObject: db.prepare<[ObjectId, string, number, number, string]>(
      'INSERT INTO objects (id, type, owner, created_time, updated_time, data) VALUES (?, ?, NULL, ?, ?, ?)',
    ),
    selectSequence: db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'objects'`),
    resetSequence: db.prepare<[number]>(`UPDATE sqlite_sequence SET seq = ? WHERE name = 'objects'`),
    selectIdTaken: db.prepare<[ObjectId, ObjectId], { found: number }>(
      'SELECT 1 AS found FROM objects WHERE id = ? UNION ALL SELECT 1 FROM deleted_apps WHERE id = ?',
    ),
    updateObject: db.prepare<[string, number, ObjectId]>('UPDATE objects SET data = ?, updated_time = ? WHERE id = ?'),
    deleteObject: db.prepare<[ObjectId]>('DELETE FROM objects WHERE id = ?'),
    deleteKeysOf: db.prepare<[ObjectId]>('DELETE FROM declared_keys WHERE id = ?'),
    selectOwned: db.prepare<[ObjectId], { id: number }>('SELECT id FROM objects WHERE owner = ?'),

    insertAssociation: db.prepare<[ObjectId, string, ObjectId, number, string | null]>(
      'INSERT OR IGNORE INTO associations (id1, type, id2, time, data) VALUES (?, ?, ?, ?, ?)',
    ),
    deleteAssociation: db.prepare<[ObjectId, string, ObjectId]>(
      'DELETE FROM associations WHERE id1 = ? AND type = ? AND id2 = ?',
    ),
    selectAssociationExists: db.prepare<[ObjectId, string, ObjectId], { found: number }>(
      'SELECT 1 AS found FROM associations WHERE id1 = ? AND type = ? AND id2 = ?',
    ),
    deleteOutgoing: db.prepare<[ObjectId]>('DELETE FROM associations WHERE id1 = ?'),
    selectIncoming: db.prepare<[ObjectId], { id1: number; type: string; removed: number }>(
      'SELECT id1, type, COUNT(*) AS removed FROM associations WHERE id2 = ? GROUP BY id1, type',
    ),
    deleteIncoming: db.prepare<[ObjectId]>('DELETE FROM associations WHERE id2 = ?'),
    selectAssociatedIds: db.prepare<[ObjectId, string], { id2: number }>(
      'SELECT id2 FROM associations WHERE id1 = ? AND type IN (SELECT value FROM json_each(?))',
    ),

    selectListed: db.prepare<[ObjectId, string], { id2: ObjectId }>('SELECT id2 FROM associations WHERE id1 = ? AND type = ?'),
    selectListedGranted: db.prepare<[ObjectId, string, ObjectId, string], { id2: ObjectId }>(
      `SELECT a.id2 FROM associations a WHERE a.id1 = ? AND a.type = ?
         AND EXISTS (SELECT 1 FROM grants g WHERE g.app_id = ? AND g.user_id = a.id2 AND g.scope = ? AND g.status = 'granted')`,
    ),
    selectCounts: db.prepare<[string, string], { id1: number; count: number }>(
      'SELECT id1, count FROM counts WHERE type = ? AND id1 IN (SELECT value FROM json_each(?))',
    ),
    selectCount: db.prepare<[ObjectId, string], { count: number }>('SELECT count FROM counts WHERE id1 = ? AND type = ?'),
    incrementCount: db.prepare<[ObjectId, string]>(
      `INSERT INTO counts (id1, type, count) VALUES (?, ?, 1)
       ON CONFLICT (id1, type) DO UPDATE SET count = count + 1`,
    ),
    decrementCount: db.prepare<[number, ObjectId, string]>(
      'UPDATE counts SET count = count - ? WHERE id1 = ? AND type = ?',
    ),
    deleteCountsOf: db.prepare<[ObjectId]>('DELETE FROM counts WHERE id1 = ?'),
    adjustCount: db.prepare<[ObjectId, string, number]>(
      `INSERT INTO counts (id1, type, count) VALUES (?, ?, ?)
       ON CONFLICT (id1, type) DO UPDATE SET count = count + excluded.count`,
    ),
    upsertDeclaredKey: db.prepare<[string, string, ObjectId]>(
      'INSERT INTO declared_keys (type, key, id) VALUES (?, ?, ?) ON CONFLICT (type, key) DO UPDATE SET id = excluded.id',
    ),
    selectDeclaredIds: db.prepare<[string, string], { key: string; id: number }>(
      'SELECT key, id FROM declared_keys WHERE type = ? AND key IN (SELECT value FROM json_each(?))',
    ),
    selectLatestSchemaVersion: db.prepare<[], SchemaVersionRow>(
      `SELECT ${SCHEMA_VERSION_COLUMNS} FROM schema_versions ORDER BY version DESC LIMIT 1`,
    ),
    insertSchemaVersion: db.prepare<[string, string, string, string, string, ObjectId, number], SchemaVersionRow>(
      `INSERT INTO schema_versions (version, name, hash, text, storage, source, app_id, applied_time)
       SELECT coalesce(max(version), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM schema_versions
       RETURNING ${SCHEMA_VERSION_COLUMNS}`,
    ),

    insertApp: db.prepare<[ObjectId, string, string, number, number, ObjectId | null, number, string]>(
      'INSERT INTO apps (id, secret, id_key, id_tag, require_proof, business_id, created_time, redirect_uris) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    selectAppsByIdTag: db.prepare<[number], AppRow>(`SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id WHERE a.id_tag = ?`),
    selectApps: db.prepare<[string], AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id
       WHERE a.id IN (SELECT value FROM json_each(?))`,
    ),
    selectAllApps: db.prepare<[], AppRow>(`SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id ORDER BY a.id`),

    upsertToken: db.prepare<[string, string, ObjectId, ObjectId | null, string, number, number, ObjectId | null]>(
      `INSERT OR REPLACE INTO tokens (hash, kind, app_id, user_id, scopes, issued_at, expires_at, page_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    selectAuthVersion: db.prepare<[], { version: number }>('SELECT version FROM auth_version'),
    selectToken: db.prepare<[string], TokenRow>(
      'SELECT hash, kind, app_id, user_id, scopes, issued_at, expires_at, page_id FROM tokens WHERE hash = ?',
    ),
    deleteTokens: db.prepare<[ObjectId, ObjectId]>('DELETE FROM tokens WHERE app_id = ? AND user_id = ?'),
    deleteTokensOfUser: db.prepare<[ObjectId]>('DELETE FROM tokens WHERE user_id = ?'),
    copyTokensToRevoked: db.prepare<[ObjectId, ObjectId]>(
      `INSERT OR REPLACE INTO revoked_tokens (hash, app_id, user_id, expires_at)
       SELECT hash, app_id, user_id, expires_at FROM tokens WHERE app_id = ? AND user_id = ?`,
    ),
    deleteRevokedTokensOfUser: db.prepare<[ObjectId]>('DELETE FROM revoked_tokens WHERE user_id = ?'),
    deleteStaleRevokedTokens: db.prepare<[number]>('DELETE FROM revoked_tokens WHERE expires_at != 0 AND expires_at <= ?'),
    selectRevokedToken: db.prepare<[string], RevokedTokenRow>(
      'SELECT hash, app_id, user_id, expires_at FROM revoked_tokens WHERE hash = ?',
    ),

    deleteGrants: db.prepare<[ObjectId, ObjectId]>('DELETE FROM grants WHERE app_id = ? AND user_id = ?'),
    deleteGrantsOfUser: db.prepare<[ObjectId]>('DELETE FROM grants WHERE user_id = ?'),
    insertGrant: db.prepare<[ObjectId, ObjectId, string, GrantStatus]>(
      'INSERT OR REPLACE INTO grants (app_id, user_id, scope, status) VALUES (?, ?, ?, ?)',
    ),
    updateGrantStatus: db.prepare<[GrantStatus, ObjectId, ObjectId, string]>(
      'UPDATE grants SET status = ? WHERE app_id = ? AND user_id = ? AND scope = ?',
    ),
    selectGrants: db.prepare<[ObjectId, string], GrantRow>(
      `SELECT user_id, scope, status FROM grants
       WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))
       ORDER BY user_id, scope`,
    ),

    upsertCredentials: db.prepare<[ObjectId, string, string]>(
      `INSERT INTO credentials (user_id, email, password_hash) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, password_hash = excluded.password_hash`,
    ),
    selectCredentialsByEmail: db.prepare<[string], CredentialsRow>(
      'SELECT user_id, email, password_hash FROM credentials WHERE email = ?',
    ),
    selectCredentialsByUser: db.prepare<[ObjectId], CredentialsRow>(
      'SELECT user_id, email, password_hash FROM credentials WHERE user_id = ?',
    ),
    deleteCredentialsOfUser: db.prepare<[ObjectId]>('DELETE FROM credentials WHERE user_id = ?'),

    insertAuthCode: db.prepare<[string, ObjectId, ObjectId, string, string, number]>(
      `INSERT INTO auth_codes (hash, app_id, user_id, redirect_uri, scopes, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    deleteAuthCode: db.prepare<[string], AuthCodeRow>(
      'DELETE FROM auth_codes WHERE hash = ? RETURNING hash, app_id, user_id, redirect_uri, scopes, expires_at',
    ),
    deleteAuthCodesOfUser: db.prepare<[ObjectId]>('DELETE FROM auth_codes WHERE user_id = ?'),

    selectSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
    upsertSetting: db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    insertSettingIfAbsent: db.prepare<[string, string], { value: string }>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING value',
    ),
  };
}

/**
 * The page query of one shape: a range scan of associations_by_time for a single id1. Row-value
 * comparisons on (time, id2) match the index order, so equal times are split by id2.
 */
function pageSql(shape: PageShape): string {
  const conditions = ['a.id1 = @id1', 'a.type = @type'];
  const further = shape.oldest ? '>' : '<';
  const back = shape.oldest ? '<' : '>';
  if (shape.after) conditions.push(`(a.time, a.id2) ${further} (@afterTime, @afterId2)`);
  if (shape.before) conditions.push(`(a.time, a.id2) ${back} (@beforeTime, @beforeId2)`);
  if (shape.since) conditions.push('a.time >= @since');
  if (shape.until) conditions.push('a.time <= @until');
  if (shape.granted) {
    const granted = `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = @grantAppId AND g.user_id = a.id2
         AND g.scope = @grantScope AND g.status = 'granted')`;
    conditions.push(
      shape.grantedOrNotPerson ? `(${granted} OR NOT EXISTS (SELECT 1 FROM objects o WHERE o.id = a.id2 AND o.type = @personType))` : granted,
    );
  }
  const forwards = shape.oldest ? 'ASC' : 'DESC';
  const backwards = shape.oldest ? 'DESC' : 'ASC';
  const direction = shape.before ? backwards : forwards;
  return `SELECT a.id1, a.type, a.id2, a.time, a.data FROM associations a
    WHERE ${conditions.join(' AND ')}
    ORDER BY a.time ${direction}, a.id2 ${direction} LIMIT @limit`;
}

/** The named parameters of a page query, matching exactly the conditions pageSql emits. */
function pageParams(request: PageRequest): PageParams {
  const params: PageParams = { type: request.type, limit: request.limit };
  if (request.after) {
    params.afterTime = request.after.time;
    params.afterId2 = request.after.id2;
  }
  if (request.before) {
    params.beforeTime = request.before.time;
    params.beforeId2 = request.before.id2;
  }
  if (request.since !== undefined) params.since = request.since;
  if (request.until !== undefined) params.until = request.until;
  if (request.id2GrantedTo) {
    params.grantAppId = request.id2GrantedTo.appId;
    params.grantScope = request.id2GrantedTo.scope;
    if (request.id2GrantedTo.personType !== undefined) params.personType = request.id2GrantedTo.personType;
  }
  return params;
}

function toAssociation(row: AssociationRow): Association {
  return {
    id1: row.id1,
    type: row.type,
    id2: row.id2,
    time: row.time,
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
  };
}
