import { isPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { selectRows } from './test-store.js';

/** A store's rows as text, sorted, table by table: what a reset or a restore must give back whole. */
export type StoreTables = Record<string, string[]>;

/**
 * Every row of every table, secrets included, and the id sequences, as text. Left out: the undo
 * log itself, the auth version (it only moves forwards, so that caches see every change), the
 * servers' live settings (clock, faults), and the full-text index's internal tables (its
 * contents are compared).
 */
export async function storeTables(store: Store): Promise<StoreTables> {
  const dump: StoreTables = {};
  const postgres = isPostgresStore(store);
  const names = postgres
    ? await selectRows<{ name: string }>(store, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
    : await selectRows<{ name: string }>(store, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_index_%'`);
  for (const { name } of names) {
    if (name.startsWith('undo_') || name === 'auth_version') continue;
    const sql = postgres ? `SELECT t::text AS row FROM "${name}" t` : `SELECT ${name === 'search_index' ? 'rowid, *' : '*'} FROM "${name}"`;
    const rows = (await selectRows<Record<string, unknown>>(store, sql)).map((row) => (postgres ? String(row.row) : JSON.stringify(row)));
    dump[name] = rows.filter((row) => !/"?live\./.test(row) && !row.includes('"undo_log"')).sort();
  }
  if (postgres) {
    const sequences = await selectRows<{ name: string }>(
      store,
      `SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = current_schema() AND sequence_name NOT LIKE 'undo%'`,
    );
    for (const { name } of sequences) {
      dump[`sequence ${name}`] = (await selectRows<{ row: string }>(store, `SELECT last_value || ' ' || is_called AS row FROM "${name}"`)).map((row) => row.row);
    }
  }
  return dump;
}

/** The tables whose rows differ, with the rows one has that the other lacks: {} when they are the same. */
export function tableDifferences(actual: StoreTables, expected: StoreTables): Record<string, { extra: string[]; missing: string[] }> {
  const found: Record<string, { extra: string[]; missing: string[] }> = {};
  for (const table of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    const [a, e] = [actual[table] ?? [], expected[table] ?? []];
    const extra = a.filter((row) => !e.includes(row)).map((row) => row.slice(0, 300));
    const missing = e.filter((row) => !a.includes(row)).map((row) => row.slice(0, 300));
    if (extra.length + missing.length > 0) found[table] = { extra, missing };
  }
  return found;
}
