/**
 * The whole content of a store as self-describing records, for moving a graph between stores
 * (`loom export` / `loom import`). Records carry internal ids as they are: app-scoped user ids
 * and post ids derive from them, so a copy must keep them.
 */
import type { SchemaVersionRecord } from './admin-store.js';
import type { AppRecord, Credentials, GrantStatus, RevokedToken, TokenRecord } from './auth-store.js';
import type { Association, StoredObject } from './graph-store.js';
import { DATABASE_ID_SETTING } from './snapshots.js';

/** The store as records: read out kind by kind, and written back ids and all. */
export interface RecordStore {
  /** Export: up to `limit` records of one kind in key order, after the record whose key is `after`. */
  scanRecords(kind: RecordKind, after: RecordKey | undefined, limit: number): Promise<StoreRecord[]>;
  /** How many records of one kind the store holds. */
  countRecords(kind: RecordKind): Promise<number>;
  /**
   * Import: writes records as they are, ids included, in one transaction. A key that is already
   * present is an error; an idSequence record only ever moves the id sequence forwards.
   */
  loadRecords(records: readonly StoreRecord[]): Promise<void>;
  /**
   * Import of a large graph into an empty store: `fill` loads records (as loadRecords, each call
   * its own transaction) while the secondary indexes are set aside; they are built once at the
   * end, from sorted data, far faster than kept up to date row by row. A load cut short leaves a
   * store to throw away, as any partial import does.
   */
  bulkLoad(fill: (load: (records: readonly StoreRecord[]) => Promise<void>) => Promise<void>): Promise<void>;
  /**
   * After a graph was written in bulk through ordinary writes (a seeded demo graph): brings up to
   * date what the database's query planner knows of its tables, as a bulk load does at its end.
   */
  refreshStatistics(): Promise<void>;
}

export type StoreRecord =
  /** The highest object id ever handed out, so a copy never reuses the id of a deleted object. */
  | { record: 'idSequence'; last: number }
  | ({ record: 'object' } & StoredObject)
  | ({ record: 'association' } & Association)
  | { record: 'count'; id1: number; type: string; count: number }
  /** The app's name and API version live in its application object, which comes with the objects. */
  | ({ record: 'app' } & Omit<AppRecord, 'name' | 'apiVersion'>)
  | { record: 'grant'; appId: number; userId: number; scope: string; status: GrantStatus }
  | ({ record: 'credentials' } & Credentials)
  | { record: 'setting'; key: string; value: string }
  | ({ record: 'token' } & TokenRecord)
  | ({ record: 'revokedToken' } & RevokedToken)
  /** What remains of a deleted app: its id, so its credentials and tokens are answered for. */
  | { record: 'deletedApp'; id: number; deletedTime: number }
  /** A declaration `loom schema apply` recorded, with its pinned storage keys. */
  | ({ record: 'schemaVersion' } & SchemaVersionRecord)
  /** The team's own key of a declared node. */
  | { record: 'declaredKey'; type: string; key: string; id: number };

export type RecordKind = StoreRecord['record'];
export type TableKind = Exclude<RecordKind, 'idSequence'>;

/**
 * Every kind, in the order a copy writes them: objects before the apps and associations that
 * refer to them. Each record names its kind in `record`.
 */
export const RECORD_KINDS: readonly RecordKind[] = [
  'idSequence',
  'object',
  'association',
  'count',
  'app',
  'grant',
  'credentials',
  'setting',
  'token',
  'revokedToken',
  'deletedApp',
  'schemaVersion',
  'declaredKey',
];

/** Whether the store holds no record of any kind (its id sequence and its own id aside): a scan of a row or two per kind. */
export async function isEmptyStore(store: RecordStore): Promise<boolean> {
  for (const kind of RECORD_KINDS) {
    if (kind === 'idSequence') continue;
    const records = await store.scanRecords(kind, undefined, 2);
    if (records.some((record) => !(record.record === 'setting' && record.key === DATABASE_ID_SETTING))) return false;
  }
  return true;
}

/** The kinds that hold access tokens (hashed), copied only when asked. */
export const TOKEN_KINDS: readonly RecordKind[] = ['token', 'revokedToken'];

/** A record's position in its kind's scan order: the values of its table's primary key. */
export type RecordKey = ReadonlyArray<number | string>;

export interface RecordColumn {
  column: string;
  field: string;
  /** The column's PostgreSQL type; SQLite stores json as text and boolean as 0 or 1. */
  type: 'bigint' | 'text' | 'json' | 'boolean';
  /** Whether the schema lets the column hold null (an object nobody owns, an app token's user). */
  nullable: boolean;
  /** The value of a record written by an earlier Loom, which did not have the field yet. */
  absent?: number | readonly [];
}

/** How the records of one kind map onto the rows of one table, the same in every store. */
export interface RecordTable {
  table: string;
  columns: readonly RecordColumn[];
  /** The primary key columns, in scan order. */
  key: readonly string[];
}

const bigint = (column: string, field = column): RecordColumn => ({ column, field, type: 'bigint', nullable: false });
const text = (column: string, field = column): RecordColumn => ({ column, field, type: 'text', nullable: false });
const json = (column: string, field = column): RecordColumn => ({ column, field, type: 'json', nullable: false });
const nullable = (column: RecordColumn): RecordColumn => ({ ...column, nullable: true });

export const RECORD_TABLES: Readonly<Record<TableKind, RecordTable>> = {
  object: {
    table: 'objects',
    columns: [bigint('id'), text('type'), nullable(bigint('owner')), bigint('created_time', 'createdTime'), bigint('updated_time', 'updatedTime'), json('data')],
    key: ['id'],
  },
  association: {
    table: 'associations',
    columns: [bigint('id1'), text('type'), bigint('id2'), bigint('time'), nullable(json('data'))],
    key: ['id1', 'type', 'id2'],
  },
  count: { table: 'counts', columns: [bigint('id1'), text('type'), bigint('count')], key: ['id1', 'type'] },
  app: {
    table: 'apps',
    columns: [
      bigint('id'),
      text('secret'),
      text('id_key', 'idKey'),
      { ...bigint('id_tag', 'idTag'), absent: 0 },
      { column: 'require_proof', field: 'requireProof', type: 'boolean', nullable: false },
      nullable(bigint('business_id', 'businessId')),
      bigint('created_time', 'createdTime'),
      json('redirect_uris', 'redirectUris'),
    ],
    key: ['id'],
  },
  grant: {
    table: 'grants',
    columns: [bigint('app_id', 'appId'), bigint('user_id', 'userId'), text('scope'), text('status')],
    key: ['app_id', 'user_id', 'scope'],
  },
  credentials: {
    table: 'credentials',
    columns: [bigint('user_id', 'userId'), text('email'), text('password_hash', 'passwordHash')],
    key: ['user_id'],
  },
  setting: { table: 'settings', columns: [text('key'), text('value')], key: ['key'] },
  token: {
    table: 'tokens',
    columns: [
      text('hash'),
      text('kind'),
      bigint('app_id', 'appId'),
      nullable(bigint('user_id', 'userId')),
      json('scopes'),
      bigint('issued_at', 'issuedAt'),
      bigint('expires_at', 'expiresAt'),
      nullable(bigint('page_id', 'pageId')),
    ],
    key: ['hash'],
  },
  revokedToken: {
    table: 'revoked_tokens',
    columns: [text('hash'), bigint('app_id', 'appId'), bigint('user_id', 'userId'), bigint('expires_at', 'expiresAt'), { ...json('scopes'), absent: [] }],
    key: ['hash'],
  },
  deletedApp: { table: 'deleted_apps', columns: [bigint('id'), bigint('deleted_time', 'deletedTime')], key: ['id'] },
  schemaVersion: {
    table: 'schema_versions',
    columns: [
      bigint('version'),
      text('name'),
      text('hash'),
      text('text'),
      text('storage'),
      text('source'),
      bigint('app_id', 'appId'),
      bigint('applied_time', 'appliedTime'),
    ],
    key: ['version'],
  },
  declaredKey: { table: 'declared_keys', columns: [text('type'), text('key'), bigint('id')], key: ['type', 'key'] },
};

export function recordKey(record: StoreRecord): RecordKey {
  if (record.record === 'idSequence') return [];
  const { columns, key } = RECORD_TABLES[record.record];
  const fields = record as unknown as Record<string, number | string>;
  return key.map((name) => fields[columns.find((c) => c.column === name)!.field]!);
}

/** A row, keyed by column name, as a record; `decode` turns a stored value into its JS value. */
export function rowToRecord(
  kind: TableKind,
  row: Readonly<Record<string, unknown>>,
  decode: (value: unknown, column: RecordColumn) => unknown,
): StoreRecord {
  const record: Record<string, unknown> = { record: kind };
  for (const column of RECORD_TABLES[kind].columns) record[column.field] = decode(row[column.column], column);
  return record as unknown as StoreRecord;
}

/** The record's values in its table's column order; `encode` turns a JS value into a stored one. */
export function recordValues(
  record: Exclude<StoreRecord, { record: 'idSequence' }>,
  encode: (value: unknown, column: RecordColumn) => unknown,
): unknown[] {
  const fields = record as unknown as Record<string, unknown>;
  return RECORD_TABLES[record.record].columns.map((column) => encode(fields[column.field] ?? column.absent ?? null, column));
}
