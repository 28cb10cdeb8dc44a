import type pg from 'pg';
import type { RecordKey, RecordKind, StoreRecord } from '../records.js';
import type {
  AppRecord,
  Association,
  AuthCode,
  Credentials,
  Grant,
  GrantStatus,
  NewApp,
  ObjectId,
  PageRequest,
  RevokedToken,
  SchemaVersionRecord,
  Store,
  StoredObject,
  TokenRecord,
  UserGrants,
  WriteOp,
  WriteResult,
} from '../store.js';
import { IdTakenError, SEQUENCE_ID_LIMIT, type AppChanges, type GrantUpdateOptions } from '../store.js';
import { changedScopes } from '../write-ops.js';
import { appStatements } from './app-statements.js';
import { AuthListener } from './auth-listener.js';
import { DecodedData } from '../decoded-data.js';
import { createPool, parsePostgresLocation, quoteIdentifier } from './connection.js';
import { migrate } from './migrations.js';
import { pageQuery } from './page-query.js';
import { countTable, loadRecords, scanTable } from './records.js';
import { statements, type Statement } from './statements.js';
import { applyOps, tokenValues } from './write-batch.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from './snapshots.js';
import { declareSearchable, search } from './search.js';
import type { SearchableType, SearchRequest } from '../search.js';
import { countAppUsers, countCalls } from './call-counts.js';
import { PostgresWebhooks, recordChange } from './webhook-queue.js';
import { LIVE_SETTING_PREFIX, type SnapshotInfo } from '../snapshots.js';
import { appData, createdAppRecord, grantsByUser, zeroFilledCounts } from '../store-results.js';
import {
  toAppRecord,
  toAuthCode,
  toCredentials,
  toStoredObject,
  toTokenRecord,
  schemaVersionOf,
  type SchemaVersionRow,
  type AppRow,
  type AuthCodeRow,
  type CredentialsRow,
  type ObjectRow,
  type TokenRow,
} from '../rows.js';

/** A row of a page query; the object_ columns come with `withObjects` (null when id2 names no object). */
interface PageRow {
  id1: number;
  /** The row's own id1 in a merged page (PageRequest.through), where id1 is the id1 asked for. */
  owner?: number;
  id2: number;
  time: number;
  data: Record<string, unknown> | null;
  object_type?: string | null;
  object_owner?: number | null;
  object_created_time?: number | null;
  object_updated_time?: number | null;
  object_data?: string | null;
}

/**
 * Write ops that may change an auth table (the others change only the graph): deleting an
 * object deletes the app it may be, with its tokens and grants.
 */
const AUTH_OPS = new Set<WriteOp['op']>(['deleteUser', 'deleteObject', 'setCredentials', 'setGrants', 'saveToken']);

/** Deadlocks and serialization failures: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

/**
 * Opens the store at a `postgres://` URL and waits until its schema is migrated. The URL may
 * name a schema (`?schema=name`, default `public`) and a pool size (`?pool=N`, default 10).
 */
export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const store = new PostgresStore(url);
  try {
    await store.ready;
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

export class PostgresStore implements Store {
  /** The pool itself, for diagnostics and tests; everything else goes through Store. */
  readonly pool: pg.Pool;
  readonly schema: string;
  /**
   * Settles once the schema is migrated. The constructor cannot wait, so every method waits
   * instead, and a failure to connect or migrate is the failure of the first call.
   */
  readonly ready: Promise<void>;
  private closed = false;
  readonly webhooks: PostgresWebhooks;
  private readonly authListener: AuthListener;
  private readonly decodedData = new DecodedData();

  constructor(url: string) {
    const location = parsePostgresLocation(url);
    this.schema = location.schema;
    this.pool = createPool(location);
    this.authListener = new AuthListener(location);
    // Listening from the start lets the token cache work from the first request.
    this.ready = this.migrate().then(() => this.authListener.start());
    // Marks the failure as handled here; callers still see it when they wait on `ready`.
    this.ready.catch(() => {});
    this.webhooks = new PostgresWebhooks({ rows: (statement, values) => this.rows(statement, values), transaction: (work) => this.transaction(work) });
  }

  async getObjects(ids: readonly ObjectId[]): Promise<Map<ObjectId, StoredObject>> {
    const objects = new Map<ObjectId, StoredObject>();
    if (ids.length === 0) return objects;
    for (const row of await this.rows<ObjectRow>(statements.selectObjects, [ids])) objects.set(row.id, toStoredObject(row, this.decodedData));
    return objects;
  }

  async getPages(request: PageRequest): Promise<Map<ObjectId, Association[]>> {
    return (await this.readPages(request, false)).pages;
  }

  async getPagesWithObjects(request: PageRequest): Promise<{ pages: Map<ObjectId, Association[]>; objects: Map<ObjectId, StoredObject> }> {
    return this.readPages(request, true);
  }

  private async readPages(
    request: PageRequest,
    withObjects: boolean,
  ): Promise<{ pages: Map<ObjectId, Association[]>; objects: Map<ObjectId, StoredObject> }> {
    const pages = new Map<ObjectId, Association[]>();
    const objects = new Map<ObjectId, StoredObject>();
    if (request.id1s.length === 0) return { pages, objects };
    if (!Number.isInteger(request.limit) || request.limit < 0) {
      throw new RangeError(`Page limit must be a non-negative integer, got ${request.limit}`);
    }
    const id1s = [...new Set(request.id1s)];
    for (const id1 of id1s) pages.set(id1, []);
    await this.ready;
    const { rows } = await this.pool.query<PageRow>(pageQuery(request, id1s, withObjects));
    for (const row of rows) {
      pages.get(row.id1)!.push({ id1: row.owner ?? row.id1, type: request.type, id2: row.id2, time: row.time, data: row.data });
      if (row.object_type !== undefined && row.object_type !== null && !objects.has(row.id2)) {
        objects.set(
          row.id2,
          toStoredObject({
            id: row.id2,
            type: row.object_type,
            owner: row.object_owner!,
            created_time: row.object_created_time!,
            updated_time: row.object_updated_time!,
            data: row.object_data!,
          }, this.decodedData),
        );
      }
    }
    return { pages, objects };
  }

  async declareSearchable(types: readonly SearchableType[]): Promise<void> {
    await this.transaction((client) => declareSearchable(client, types));
  }

  async search(request: SearchRequest): Promise<StoredObject[]> {
    await this.ready;
    return search(this.pool, request);
  }

  async getCounts(type: string, id1s: readonly ObjectId[]): Promise<Map<ObjectId, number>> {
    if (id1s.length === 0) return new Map();
    return zeroFilledCounts(id1s, await this.rows<{ id1: number; count: number }>(statements.selectCounts, [type, id1s]));
  }

  async getExisting(type: string, pairs: ReadonlyArray<readonly [ObjectId, ObjectId]>): Promise<Set<string>> {
    const existing = new Set<string>();
    if (pairs.length === 0) return existing;
    const rows = await this.rows<{ id1: number; id2: number }>(statements.selectExisting, [
      type,
      pairs.map(([id1]) => id1),
      pairs.map(([, id2]) => id2),
    ]);
    for (const { id1, id2 } of rows) existing.add(`${id1}:${id2}`);
    return existing;
  }

  async write(ops: readonly WriteOp[]): Promise<WriteResult> {
    if (ops.length === 0) return { results: [] };
    const applied = this.transaction((client) => applyOps(client, ops));
    return { results: await (ops.some((op) => AUTH_OPS.has(op.op)) ? this.afterAuthChange(applied) : applied) };
  }

  async createApp(app: NewApp): Promise<AppRecord> {
    const values = [
      app.createdTime,
      JSON.stringify(appData(app)),
      app.secret,
      app.idKey,
      app.requireProof ?? false,
      app.businessId ?? null,
      JSON.stringify(app.redirectUris ?? []),
      app.idTag ?? 0,
    ];
    if (app.id === undefined) {
      const [row] = await this.rows<{ id: number }>(statements.insertApp, values);
      return createdAppRecord(row!.id, app);
    }
    const id = app.id;
    if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) throw new RangeError(`A fixed id must be at least ${SEQUENCE_ID_LIMIT}, not ${id}`);
    await this.transaction(async (client) => {
      if ((await client.query({ ...appStatements.selectIdTaken, values: [id] })).rows.length > 0) throw new IdTakenError(id);
      try {
        await client.query({ ...appStatements.insertFixedApp, values: [...values, id] });
      } catch (error) {
        // Another process took the id meanwhile.
        if ((error as { code?: string }).code === '23505') throw new IdTakenError(id);
        throw error;
      }
    });
    return createdAppRecord(id, app);
  }

  async findAppsByIdTag(idTag: number): Promise<AppRecord[]> {
    return (await this.rows<AppRow>(statements.selectAppsByIdTag, [idTag])).map(toAppRecord);
  }

  async updateApp(id: ObjectId, changes: AppChanges, now: number): Promise<AppRecord | undefined> {
    const redirectUris = changes.redirectUris === undefined ? null : JSON.stringify(changes.redirectUris);
    const found = await this.transaction(async (client) => {
      const values = [changes.secret ?? null, changes.requireProof ?? null, changes.businessId !== undefined, changes.businessId ?? null, redirectUris, id];
      if ((await client.query({ ...appStatements.updateApp, values })).rows.length === 0) return false;
      if (changes.data !== undefined) await applyOps(client, [{ op: 'updateObject', id, data: changes.data, updatedTime: now }]);
      return true;
    });
    return found ? (await this.getApps([id])).get(id) : undefined;
  }

  async deleteApp(id: ObjectId, now: number): Promise<boolean> {
    return this.transaction(async (client) => {
      await client.query({ ...statements.deleteStaleRevokedTokens, values: [now] });
      if ((await client.query({ ...appStatements.deleteAppRow, values: [id] })).rows.length === 0) return false;
      await client.query({ ...appStatements.revokeTokensOfApp, values: [id] });
      await client.query({ ...appStatements.deleteGrantsOfApp, values: [id] });
      await client.query({ ...appStatements.deleteAuthCodesOfApp, values: [id] });
      await applyOps(client, [{ op: 'deleteObject', id }]);
      await client.query({ ...appStatements.insertDeletedApp, values: [id, now] });
      return true;
    });
  }

  async getDeletedApps(ids: readonly ObjectId[]): Promise<Set<ObjectId>> {
    if (ids.length === 0) return new Set();
    return new Set((await this.rows<{ id: number }>(appStatements.selectDeletedApps, [ids])).map((row) => row.id));
  }

  async getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>> {
    const apps = new Map<ObjectId, AppRecord>();
    if (ids.length === 0) return apps;
    for (const row of await this.rows<AppRow>(statements.selectApps, [ids])) apps.set(row.id, toAppRecord(row));
    return apps;
  }

  async listApps(): Promise<AppRecord[]> {
    return (await this.rows<AppRow>(statements.selectAllApps, [])).map(toAppRecord);
  }


  async saveTokens(tokens: readonly TokenRecord[]): Promise<void> {
    if (tokens.length > 0) await this.afterAuthChange(this.rows(statements.upsertTokens, tokenValues(tokens)));
  }

  async findToken(hash: string): Promise<TokenRecord | undefined> {
    const [row] = await this.rows<TokenRow>(statements.selectToken, [hash]);
    return row === undefined ? undefined : toTokenRecord(row);
  }

  async deleteTokens(appId: ObjectId, userId: ObjectId): Promise<void> {
    await this.afterAuthChange(this.rows(statements.deleteTokens, [appId, userId]));
  }

  async updateGrants(
    appId: ObjectId,
    userId: ObjectId,
    changes: readonly Grant[],
    options: GrantUpdateOptions = {},
  ): Promise<Grant[]> {
    // One change per scope, the last winning, as when the changes apply one after another.
    const latest = new Map(changes.map(({ scope, status }) => [scope, status]));
    const change = options.onlyExisting ? statements.updateUserGrants : statements.upsertUserGrants;
    return this.afterAuthChange(this.transaction(async (client) => {
      const grantsNow = async () =>
        (await client.query<{ scope: string; status: GrantStatus }>({ ...statements.selectGrants, values: [appId, [userId]] })).rows.map(
          ({ scope, status }) => ({ scope, status }),
        );
      const before = options.changesAt === undefined ? [] : await grantsNow();
      if (latest.size > 0) await client.query({ ...change, values: [appId, userId, [...latest.keys()], [...latest.values()]] });
      const after = await grantsNow();
      if (options.changesAt !== undefined) {
        for (const scope of changedScopes(before, after)) await recordChange(client, userId, scope, options.changesAt, appId);
      }
      return after;
    }));
  }

  async revokeTokens(appId: ObjectId, userId: ObjectId, now: number): Promise<void> {
    await this.afterAuthChange(this.transaction(async (client) => {
      await client.query({ ...statements.deleteStaleRevokedTokens, values: [now] });
      await client.query({ ...statements.revokeTokens, values: [appId, userId] });
    }));
  }

  async findRevokedToken(hash: string): Promise<RevokedToken | undefined> {
    const [row] = await this.rows<{ hash: string; app_id: number; user_id: number; expires_at: number }>(statements.selectRevokedToken, [hash]);
    return row === undefined ? undefined : { hash: row.hash, appId: row.app_id, userId: row.user_id, expiresAt: row.expires_at };
  }

  async setGrants(appId: ObjectId, entries: readonly UserGrants[]): Promise<void> {
    if (entries.length === 0) return;
    // As when the entries apply one after another: a user listed twice keeps the last entry's
    // grants only, and a scope listed twice in one entry its last status.
    const latest = new Map<ObjectId, Map<string, GrantStatus>>();
    for (const { userId, grants } of entries) latest.set(userId, new Map(grants.map(({ scope, status }) => [scope, status])));
    const rows = [...latest].flatMap(([userId, grants]) => [...grants].map(([scope, status]) => ({ userId, scope, status })));
    await this.afterAuthChange(this.transaction(async (client) => {
      await client.query({ ...statements.deleteGrants, values: [appId, entries.map((entry) => entry.userId)] });
      if (rows.length === 0) return;
      await client.query({
        ...statements.insertGrants,
        values: [appId, rows.map((r) => r.userId), rows.map((r) => r.scope), rows.map((r) => r.status)],
      });
    }));
  }

  async getGrants(appId: ObjectId, userIds: readonly ObjectId[]): Promise<Map<ObjectId, Grant[]>> {
    if (userIds.length === 0) return new Map();
    return grantsByUser(await this.rows<{ user_id: number; scope: string; status: GrantStatus }>(statements.selectGrants, [appId, userIds]));
  }

  async setCredentials(credentials: Credentials): Promise<void> {
    await this.afterAuthChange(this.rows(statements.upsertCredentials, [credentials.userId, credentials.email.toLowerCase(), credentials.passwordHash]));
  }

  async findCredentialsByEmail(email: string): Promise<Credentials | undefined> {
    const [row] = await this.rows<CredentialsRow>(statements.selectCredentialsByEmail, [email.toLowerCase()]);
    return row === undefined ? undefined : toCredentials(row);
  }

  async getCredentials(userId: ObjectId): Promise<Credentials | undefined> {
    const [row] = await this.rows<CredentialsRow>(statements.selectCredentialsByUser, [userId]);
    return row === undefined ? undefined : toCredentials(row);
  }

  async saveAuthCodes(codes: readonly AuthCode[]): Promise<void> {
    if (codes.length === 0) return;
    await this.rows(statements.insertAuthCodes, [
      codes.map((code) => code.hash),
      codes.map((code) => code.appId),
      codes.map((code) => code.userId),
      codes.map((code) => code.redirectUri),
      codes.map((code) => JSON.stringify(code.scopes)),
      codes.map((code) => code.expiresAt),
    ]);
  }

  async takeAuthCode(hash: string): Promise<AuthCode | undefined> {
    const [row] = await this.rows<AuthCodeRow>(statements.deleteAuthCode, [hash]);
    return row === undefined ? undefined : toAuthCode(row);
  }

  async latestSchemaVersion(): Promise<SchemaVersionRecord | undefined> {
    const [row] = await this.rows<SchemaVersionRow>(statements.selectLatestSchemaVersion, []);
    return row && schemaVersionOf(row);
  }

  async recordSchemaVersion(record: Omit<SchemaVersionRecord, 'version'>): Promise<SchemaVersionRecord> {
    const [row] = await this.rows<SchemaVersionRow>(statements.insertSchemaVersion, [
      record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime,
    ]);
    return schemaVersionOf(row!);
  }

  async findDeclaredIds(type: string, keys: readonly string[]): Promise<Map<string, ObjectId>> {
    if (keys.length === 0) return new Map();
    // Planned on every call rather than prepared: an import fills the key table from empty, and a
    // plan cached while it was small would go on scanning it whole as it grows.
    await this.ready;
    const { rows } = await this.pool.query<{ key: string; id: string | number }>({ text: statements.selectDeclaredIds.text, values: [type, keys] });
    return new Map(rows.map((row) => [row.key, Number(row.id)]));
  }

  async getSetting(key: string): Promise<string | undefined> {
    const [row] = await this.rows<{ value: string }>(statements.selectSetting, [key]);
    return row?.value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    const write = this.rows(statements.upsertSetting, [key, value]);
    // A live setting moves the auth version, here and (by its trigger) in every other process.
    await (key.startsWith(LIVE_SETTING_PREFIX) ? this.afterAuthChange(write) : write);
  }

  async initSetting(key: string, value: string): Promise<string> {
    const [inserted] = await this.rows<{ value: string }>(statements.insertSettingIfAbsent, [key, value]);
    // When another writer got there first, its committed value is what this separate read sees.
    return inserted?.value ?? (await this.getSetting(key))!;
  }

  async scanRecords(kind: RecordKind, after: RecordKey | undefined, limit: number): Promise<StoreRecord[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Scan limit must be a positive integer, got ${limit}`);
    if (kind === 'idSequence') {
      if (after !== undefined) return [];
      const [row] = await this.rows<{ last: number }>(statements.lastObjectId, []);
      return [{ record: 'idSequence', last: row!.last }];
    }
    await this.ready;
    return scanTable(this.pool, kind, after, limit);
  }

  async countRecords(kind: RecordKind): Promise<number> {
    if (kind === 'idSequence') return 1;
    await this.ready;
    return countTable(this.pool, kind);
  }

  async loadRecords(records: readonly StoreRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.afterAuthChange(this.transaction((client) => loadRecords(client, records)));
  }

  async bulkLoad(fill: (load: (records: readonly StoreRecord[]) => Promise<void>) => Promise<void>): Promise<void> {
    await this.ready;
    // Indexes of their own; those behind primary keys and UNIQUE constraints stay.
    const { rows: indexes } = await this.pool.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = current_schema()
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = to_regnamespace(i.schemaname))`,
    );
    for (const { name } of indexes) await this.pool.query(`DROP INDEX ${quoteIdentifier(name)}`);
    try {
      await fill((records) => this.loadRecords(records));
    } finally {
      for (const { definition } of indexes) await this.pool.query(definition);
      await this.pool.query('ANALYZE');
    }
  }

  async authVersion(): Promise<number> {
    await this.ready;
    return this.authListener.current();
  }

  async countCalls(subjects: readonly string[], minute: number, since: number): Promise<Map<string, number>> {
    return this.transaction((client) => countCalls(client, subjects, minute, since));
  }

  async countAppUsers(appId: ObjectId): Promise<number> {
    await this.ready;
    return countAppUsers(this.pool, appId);
  }

  async saveSnapshot(name: string, createdTime: number): Promise<void> {
    await this.transaction((client) => saveSnapshot(client, this.schema, name, createdTime));
  }

  async restoreSnapshot(name: string): Promise<boolean> {
    return this.transaction((client) => restoreSnapshot(client, this.schema, name));
  }

  async listSnapshots(): Promise<SnapshotInfo[]> {
    await this.ready;
    const client = await this.pool.connect();
    try {
      return await listSnapshots(client, this.schema);
    } finally {
      client.release();
    }
  }

  async deleteSnapshot(name: string): Promise<boolean> {
    return this.transaction((client) => deleteSnapshot(client, this.schema, name));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.authListener.close();
    await this.ready.catch(() => {});
    await this.pool.end();
  }

  /**
   * Every change to apps, tokens, grants or credentials ends here once committed: the other
   * processes hear of it through the tables' triggers, this one at once, and the caller goes on
   * only once the notification is on its way to all of them.
   */
  private async afterAuthChange<T>(change: Promise<T>): Promise<T> {
    const result = await change;
    await this.authListener.changed();
    return result;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      await migrate(client, this.schema);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      // A connection that failed mid-migration is not handed to anyone else.
      client.release(failure);
    }
  }

  private async rows<R extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]> {
    await this.ready;
    return (await this.pool.query<R>({ ...statement, values })).rows;
  }

  /**
   * Runs `work` in one transaction on one connection. A deadlock rolls the whole transaction
   * back, so it runs again from the start (a bounded number of times).
   */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready;
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      let retry = false;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        retry = attempt < MAX_ATTEMPTS && RETRYABLE.has((error as { code?: string }).code ?? '');
        if (!retry) throw error;
      } finally {
        client.release(broken);
      }
      // Apart by a short random pause, so the transactions that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
