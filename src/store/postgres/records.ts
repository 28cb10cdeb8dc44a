import type pg from 'pg';
import {
  RECORD_TABLES,
  recordValues,
  rowToRecord,
  type RecordColumn,
  type RecordKey,
  type RecordStore,
  type StoreRecord,
  type TableKind,
} from '../records.js';
import { SEQUENCE_ID_LIMIT } from '../auth-store.js';
import { quoteIdentifier } from './connection.js';
import { copyField, copyIn } from './copy-in.js';
import type { PostgresDatabase } from './database.js';
import { statements } from './statements.js';

type TableRecord = Exclude<StoreRecord, { record: 'idSequence' }>;

/** The PostgreSQL store as records, for export and import. */
export function postgresRecordStore(database: PostgresDatabase): RecordStore {
  const loader = (insert: InsertRows) => async (records: readonly StoreRecord[]): Promise<void> => {
    if (records.length === 0) return;
    await database.afterAuthChange(database.transaction((client) => loadRecords(client, records, insert)));
  };
  const load = loader(insertRows);
  return {
    async scanRecords(kind, after, limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Scan limit must be a positive integer, got ${limit}`);
      if (kind === 'idSequence') {
        if (after !== undefined) return [];
        const [row] = await database.rows<{ last: number }>(statements.lastObjectId, []);
        return [{ record: 'idSequence', last: row!.last }];
      }
      await database.ready;
      return scanTable(database.pool, kind, after, limit);
    },

    async countRecords(kind) {
      if (kind === 'idSequence') return 1;
      await database.ready;
      return countTable(database.pool, kind);
    },

    loadRecords: load,

    async bulkLoad(fill) {
      await database.ready;
      const { pool } = database;
      // Indexes of their own; those behind primary keys and UNIQUE constraints stay.
      const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
        `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
         WHERE i.schemaname = current_schema()
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = to_regnamespace(i.schemaname))`,
      );
      for (const { name } of indexes) await pool.query(`DROP INDEX ${quoteIdentifier(name)}`);
      try {
        // Into tables without their indexes, COPY is the fastest way in.
        await fill(loader(copyRows));
      } finally {
        for (const { definition } of indexes) await pool.query(definition);
        await analyze(pool);
      }
    },

    async refreshStatistics() {
      await database.ready;
      await analyze(database.pool);
    },
  };
}

/**
 * Statistics of the tables as they are now. Without them (autovacuum may be off, or not yet
 * round) PostgreSQL guesses every table tiny, and plans a page of friends who use the app as a
 * walk over every grant of the app, thousands of index probes, rather than a few probes per friend.
 */
async function analyze(pool: pg.Pool): Promise<void> {
  // The store's own tables: others may share the database under schemas of their own.
  const { rows } = await pool.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`);
  if (rows.length > 0) await pool.query(`ANALYZE ${rows.map(({ name }) => quoteIdentifier(name)).join(', ')}`);
}

/** One page of a table in primary-key order, after `after` when given. */
async function scanTable(
  client: pg.Pool | pg.ClientBase,
  kind: TableKind,
  after: RecordKey | undefined,
  limit: number,
): Promise<StoreRecord[]> {
  const { table, columns, key } = RECORD_TABLES[kind];
  const keyList = key.join(', ');
  const values: unknown[] = [...(after ?? []), limit];
  const where = after === undefined ? '' : `WHERE (${keyList}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})`;
  const { rows } = await client.query<Record<string, unknown>>({
    name: `loom.scan.${kind}${after === undefined ? '' : '.after'}`,
    text: `SELECT ${columns.map((c) => c.column).join(', ')} FROM ${table} ${where} ORDER BY ${keyList} LIMIT $${values.length}`,
    values,
  });
  // The driver already returns json parsed, booleans as booleans and bigints as numbers.
  return rows.map((row) => rowToRecord(kind, row, (value) => value));
}

async function countTable(client: pg.Pool | pg.ClientBase, kind: TableKind): Promise<number> {
  const { rows } = await client.query<{ count: number }>(`SELECT count(*) AS count FROM ${RECORD_TABLES[kind].table}`);
  return rows[0]!.count;
}

/**
 * Loads records inside the caller's transaction: each run of one kind is one multi-row INSERT
 * of column arrays. Loading objects with their ids moves the id sequence past them.
 */
async function loadRecords(client: pg.ClientBase, records: readonly StoreRecord[], insert: InsertRows): Promise<void> {
  let index = 0;
  while (index < records.length) {
    const first = records[index]!;
    let end = index + 1;
    while (end < records.length && records[end]!.record === first.record) end += 1;
    const batch = records.slice(index, end);
    index = end;
    if (first.record === 'idSequence') {
      await advanceIds(client, highest(batch.map((r) => (r as Extract<StoreRecord, { record: 'idSequence' }>).last)));
      continue;
    }
    await insert(client, first.record, batch as TableRecord[]);
    // Objects under fixed ids (apps') are above the sequence and never move it.
    if (first.record === 'object') {
      await advanceIds(client, highest(batch.map((r) => (r as { id: number }).id).filter((id) => id < SEQUENCE_ID_LIMIT)));
    }
  }
}

/** Writes rows of one kind of record inside the caller's transaction. */
type InsertRows = (client: pg.ClientBase, kind: TableKind, records: readonly TableRecord[]) => Promise<void>;

async function insertRows(client: pg.ClientBase, kind: TableKind, records: readonly TableRecord[]): Promise<void> {
  const { table, columns } = RECORD_TABLES[kind];
  const rows = records.map((record) => recordValues(record, encode));
  const arrays = columns.map((_, c) => rows.map((row) => row[c]));
  await client.query({
    name: `loom.load.${kind}`,
    text: `INSERT INTO ${table} (${columns.map((c) => c.column).join(', ')})
      SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})`,
    values: arrays,
  });
}

/** The same rows as insertRows, sent by COPY. */
async function copyRows(client: pg.ClientBase, kind: TableKind, records: readonly TableRecord[]): Promise<void> {
  const { table, columns } = RECORD_TABLES[kind];
  const lines = records.map((record) => `${recordValues(record, encode).map(copyField).join('\t')}\n`);
  await copyIn(client, `COPY ${table} (${columns.map((c) => c.column).join(', ')}) FROM STDIN`, lines);
}

async function advanceIds(client: pg.ClientBase, last: number): Promise<void> {
  await client.query({ ...statements.advanceObjectIds, values: [last] });
}

function highest(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}

function encode(value: unknown, column: RecordColumn): unknown {
  return column.type === 'json' && value !== null ? JSON.stringify(value) : value;
}
