import type pg from 'pg';
import {
  RECORD_TABLES,
  recordValues,
  rowToRecord,
  type RecordColumn,
  type RecordKey,
  type StoreRecord,
  type TableKind,
} from '../records.js';
import { SEQUENCE_ID_LIMIT } from '../auth-store.js';
import { statements } from './statements.js';

type TableRecord = Exclude<StoreRecord, { record: 'idSequence' }>;

/** One page of a table in primary-key order, after `after` when given. */
export async function scanTable(
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

export async function countTable(client: pg.Pool | pg.ClientBase, kind: TableKind): Promise<number> {
  const { rows } = await client.query<{ count: number }>(`SELECT count(*) AS count FROM ${RECORD_TABLES[kind].table}`);
  return rows[0]!.count;
}

/**
 * Loads records inside the caller's transaction: each run of one kind is one multi-row INSERT
 * of column arrays. Loading objects with their ids moves the id sequence past them.
 */
export async function loadRecords(client: pg.ClientBase, records: readonly StoreRecord[]): Promise<void> {
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
    await insertRows(client, first.record, batch as TableRecord[]);
    // Objects under fixed ids (apps') are above the sequence and never move it.
    if (first.record === 'object') {
      await advanceIds(client, highest(batch.map((r) => (r as { id: number }).id).filter((id) => id < SEQUENCE_ID_LIMIT)));
    }
  }
}

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

async function advanceIds(client: pg.ClientBase, last: number): Promise<void> {
  await client.query({ ...statements.advanceObjectIds, values: [last] });
}

function highest(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}

function encode(value: unknown, column: RecordColumn): unknown {
  return column.type === 'json' && value !== null ? JSON.stringify(value) : value;
}
