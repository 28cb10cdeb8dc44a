import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { sqliteOpenProblem } from './open-problem.js';
import type { Store } from '../store.js';
import type { SchemaVersionRecord, StoreVersions } from '../admin-store.js';
import type { ObjectId } from '../../ids.js';
import { migrate } from './migrations.js';
import type { RecordKey, RecordKind, StoreRecord } from '../records.js';
import { SqliteRecords } from './records.js';
import { SqliteSnapshots } from './snapshots.js';
import { findMediaKeys } from './media-keys.js';
import { SqliteCallCounts } from './call-counts.js';
import type { SnapshotInfo } from '../snapshots.js';
import type { Undone } from '../undo-log.js';
import { schemaVersionOf } from '../rows.js';
import { SqliteAuthStore } from './auth-store.js';

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
  try {
    return openAndMigrate(path);
  } catch (error) {
    throw new Error(`cannot open the SQLite database ${path}: ${sqliteOpenProblem(path, error)}`, { cause: error });
  }
}

function openAndMigrate(path: string): SqliteStore {
  createPrivately(path);
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // A row that INSERT OR REPLACE replaces fires its delete triggers, so the undo log keeps it.
    db.pragma('recursive_triggers = ON');
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

/**
 * The SQLite store whole: declared schema records, settings, record scans and loads, call counts
 * and snapshots, over the auth records (auth-store.ts) and the graph (graph-store.ts).
 */
export class SqliteStore extends SqliteAuthStore implements Store {
  private readonly records: SqliteRecords;
  private readonly callCounts: SqliteCallCounts;
  private readonly loadInTransaction: Database.Transaction<(records: readonly StoreRecord[]) => void>;
  /** What versions() read last: no stamp yet, so the first call reads the auth version. */
  private lastVersions: StoreVersions = { auth: 0, data: undefined };

  constructor(db: Database.Database) {
    super(db);
    this.records = new SqliteRecords(db);
    this.callCounts = new SqliteCallCounts(db);
    this.loadInTransaction = db.transaction((records: readonly StoreRecord[]) => this.records.load(records));
  }

  async latestSchemaVersion(): Promise<SchemaVersionRecord | undefined> {
    const row = this.statements.selectLatestSchemaVersion.get();
    return row && schemaVersionOf(row);
  }

  async recordSchemaVersion(record: Omit<SchemaVersionRecord, 'version'>): Promise<SchemaVersionRecord> {
    const row = this.statements.insertSchemaVersion.get(record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime)!;
    return schemaVersionOf(row);
  }

  async changeSchemaAlone<T>(work: () => Promise<T>): Promise<T> {
    // Immediate: the write lock is taken before the latest version is read, so a second apply
    // waits here (up to the busy timeout) rather than building on a version about to be superseded.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
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

  async markSnapshot(name: string): Promise<void> {
    new SqliteSnapshots(this.db).mark(name);
  }

  async restoreSnapshot(name: string): Promise<Undone | undefined> {
    return new SqliteSnapshots(this.db).restore(name);
  }

  async listSnapshots(): Promise<SnapshotInfo[]> {
    return new SqliteSnapshots(this.db).list();
  }

  async deleteSnapshot(name: string): Promise<boolean> {
    return new SqliteSnapshots(this.db).delete(name);
  }

  async findMediaKeys(keys: readonly string[]): Promise<Set<string>> {
    const snapshots = new SqliteSnapshots(this.db);
    return new Set([...findMediaKeys(this.db, snapshots.files(), keys), ...snapshots.findLoggedMediaKeys(keys)]);
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

  async versions(): Promise<StoreVersions> {
    const data = `${this.statements.selectOwnChanges.get()!}.${this.statements.selectDataVersion.get()!}`;
    // The auth tables' triggers move it on in the transaction of each change, made by any
    // process; while nothing changed at all, it did not move either. (Read after the stamp, it is
    // never older than the stamp it is kept with.)
    if (data !== this.lastVersions.data) this.lastVersions = { auth: this.statements.selectAuthVersion.get()!, data };
    return this.lastVersions;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
