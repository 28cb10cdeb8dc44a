import type Database from 'better-sqlite3';
import {
  RECORD_TABLES,
  recordValues,
  rowToRecord,
  type RecordColumn,
  type RecordKey,
  type RecordKind,
  type RecordStore,
  type StoreRecord,
  type TableKind,
} from '../records.js';
import { SEQUENCE_ID_LIMIT } from '../auth-store.js';

/** Page cache of a bulk load, in KiB (negative: a size rather than a page count); the index builds sort in it. */
const BULK_CACHE_KIB = -128 * 1024;

/** The SQLite store as records, for export and import. */
export function sqliteRecordStore(db: Database.Database): RecordStore {
  const records = new SqliteRecords(db);
  const loadInTransaction = db.transaction((batch: readonly StoreRecord[]) => records.load(batch));
  const loadRecords = async (batch: readonly StoreRecord[]): Promise<void> => {
    loadInTransaction.immediate(batch);
  };
  return {
    async scanRecords(kind, after, limit) {
      return records.scan(kind, after, limit);
    },

    async countRecords(kind) {
      return records.count(kind);
    },

    loadRecords,

    async bulkLoad(fill) {
      // Indexes with SQL of their own; those behind primary keys and UNIQUE constraints stay.
      const indexes = db.prepare<[], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all();
      for (const { name } of indexes) db.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`);
      // Each load is durable once the whole import is: a crash midway leaves a store to discard anyway.
      db.pragma('synchronous = OFF');
      const cacheSize = db.pragma('cache_size', { simple: true }) as number;
      db.pragma(`cache_size = ${BULK_CACHE_KIB}`);
      try {
        await fill(loadRecords);
      } finally {
        for (const { sql } of indexes) db.exec(sql);
        db.pragma(`cache_size = ${cacheSize}`);
        db.pragma('synchronous = FULL');
        db.pragma('wal_checkpoint(TRUNCATE)');
      }
    },

    async refreshStatistics() {
      // SQLite plans these reads from the indexes alone: with no statistics gathered, none go stale.
    },
  };
}

/** Whole-table scans and loads, with statements prepared on first use. */
class SqliteRecords {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  scan(kind: RecordKind, after: RecordKey | undefined, limit: number): StoreRecord[] {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Scan limit must be a positive integer, got ${limit}`);
    if (kind === 'idSequence') return after === undefined ? [{ record: 'idSequence', last: this.lastObjectId() }] : [];
    const { table, columns, key } = RECORD_TABLES[kind];
    const keyList = key.join(', ');
    const where = after === undefined ? '' : `WHERE (${keyList}) > (${key.map(() => '?').join(', ')})`;
    const sql = `SELECT ${columns.map((c) => c.column).join(', ')} FROM ${table} ${where} ORDER BY ${keyList} LIMIT ?`;
    const rows = this.statement(sql).all(...(after ?? []), limit) as Array<Record<string, unknown>>;
    return rows.map((row) => rowToRecord(kind, row, decode));
  }

  count(kind: RecordKind): number {
    if (kind === 'idSequence') return 1;
    const row = this.statement(`SELECT COUNT(*) AS count FROM ${RECORD_TABLES[kind].table}`).get() as { count: number };
    return row.count;
  }

  /** Writes the records; the caller runs it inside a transaction. */
  load(records: readonly StoreRecord[]): void {
    for (const record of records) {
      if (record.record === 'idSequence') {
        this.advanceIds(record.last);
        continue;
      }
      // An object under a fixed id (an app's) must not move the sequence, as in createApp.
      const mark = record.record === 'object' && record.id >= SEQUENCE_ID_LIMIT ? this.lastObjectId() : undefined;
      this.statement(insertSql(record.record)).run(...recordValues(record, encode));
      if (mark !== undefined) this.statement(`UPDATE sqlite_sequence SET seq = ? WHERE name = 'objects'`).run(mark);
    }
  }

  /** The AUTOINCREMENT high-water mark: the largest id the objects table ever held. */
  private lastObjectId(): number {
    const row = this.statement(`SELECT seq FROM sqlite_sequence WHERE name = 'objects'`).get() as { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  private advanceIds(last: number): void {
    this.statement(
      `INSERT INTO sqlite_sequence (name, seq) SELECT 'objects', 0
       WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'objects')`,
    ).run();
    this.statement(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'objects'`).run(last);
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function insertSql(kind: TableKind): string {
  const { table, columns } = RECORD_TABLES[kind];
  return `INSERT INTO ${table} (${columns.map((c) => c.column).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

function decode(value: unknown, column: RecordColumn): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'json') return JSON.parse(value as string);
  if (column.type === 'boolean') return value !== 0;
  return value;
}

function encode(value: unknown, column: RecordColumn): unknown {
  if (value === null) return null;
  if (column.type === 'json') return JSON.stringify(value);
  if (column.type === 'boolean') return value ? 1 : 0;
  return value;
}
