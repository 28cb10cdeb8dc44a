import pg from 'pg';
import type { RecordKey, RecordKind, StoreRecord } from '../records.js';
import type { Store } from '../store.js';
import type { SchemaVersionRecord, StoreVersions } from '../admin-store.js';
import type { ObjectId } from '../../ids.js';
import { quoteIdentifier } from './connection.js';
import { countTable, loadRecords, scanTable } from './records.js';
import { statements } from './statements.js';
import { deleteSnapshot, listSnapshots, markSnapshot, restoreSnapshot, saveSnapshot, snapshotSchemas } from './snapshots.js';
import { findLoggedMediaKeys } from './undo-log.js';
import { countAppUsers, countCalls } from './call-counts.js';
import { findMediaKeys } from './media-keys.js';
import { LIVE_SETTING_PREFIX, type SnapshotInfo } from '../snapshots.js';
import type { Undone } from '../undo-log.js';
import { schemaVersionOf, type SchemaVersionRow } from '../rows.js';
import { PostgresAuthStore } from './auth-store.js';

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

/** First key of the two-key advisory lock that schema applies take turns on ("decl" in ASCII). */
const SCHEMA_CHANGE_LOCK = 0x6465636c;

/**
 * The PostgreSQL store whole: declared schema records, settings, record scans and loads, call
 * counts and snapshots, over the auth records (auth-store.ts), the graph (graph-store.ts) and the
 * pool (pooled-store.ts).
 */
export class PostgresStore extends PostgresAuthStore implements Store {
  async latestSchemaVersion(): Promise<SchemaVersionRecord | undefined> {
    const [row] = await this.rows<SchemaVersionRow>(statements.selectLatestSchemaVersion, []);
    return row && schemaVersionOf(row);
  }

  async recordSchemaVersion(record: Omit<SchemaVersionRecord, 'version'>): Promise<SchemaVersionRecord> {
    // A new version moves the auth version, here at once and (by its trigger) in every other process.
    const [row] = await this.afterAuthChange(this.rows<SchemaVersionRow>(statements.insertSchemaVersion, [
      record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime,
    ]));
    return schemaVersionOf(row!);
  }

  async changeSchemaAlone<T>(work: () => Promise<T>): Promise<T> {
    await this.ready;
    // A connection of its own holds the lock, so the work may use every connection of the pool.
    const client = new pg.Client({ connectionString: this.location.connectionString, application_name: 'loom-schema-apply' });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SCHEMA_CHANGE_LOCK, this.schema]);
      const result = await work();
      await client.query('COMMIT');
      return result;
    } finally {
      // Ending the connection ends its transaction and so releases the lock, whatever happened.
      await client.end();
    }
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

  async findMediaKeys(keys: readonly string[]): Promise<Set<string>> {
    await this.ready;
    const found = await findMediaKeys(this.pool, this.schema, await snapshotSchemas(this.pool, this.schema), keys);
    return new Set([...found, ...(await findLoggedMediaKeys(this.pool, this.schema, keys))]);
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

  async versions(): Promise<StoreVersions> {
    await this.ready;
    return { auth: this.authListener.current(), data: undefined };
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

  async markSnapshot(name: string): Promise<void> {
    await this.transaction((client) => markSnapshot(client, this.schema, name));
  }

  async restoreSnapshot(name: string): Promise<Undone | undefined> {
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
}
