import type pg from 'pg';
import { checkDataPaths } from '../data-values.js';
import { quoteIdentifier } from './connection.js';
import { snapshotSchemas } from './snapshots.js';

/** A snapshot dropped between listing and searching it: its schema or table is gone. */
const GONE = new Set(['3F000', '42P01']);

/** `Store.findDataValues` on PostgreSQL: one scan of the objects of the store's schema and of each snapshot schema. */
export async function findDataValues(pool: pg.Pool, schema: string, paths: readonly string[], values: readonly string[]): Promise<Set<string>> {
  checkDataPaths(paths);
  const found = new Set<string>();
  if (values.length === 0 || paths.length === 0) return found;
  const params = [[...values], ...paths.map((path) => path.split('.'))];
  const search = async (owner: string) => {
    const objects = `${quoteIdentifier(owner)}.objects`;
    const selects = paths.map((_, index) => `SELECT data #>> $${index + 2}::text[] AS value FROM ${objects}`).join(' UNION ALL ');
    const { rows } = await pool.query<{ value: string }>(`SELECT DISTINCT value FROM (${selects}) found WHERE value = ANY($1::text[])`, params);
    for (const row of rows) found.add(row.value);
  };
  await search(schema);
  for (const snapshot of await snapshotSchemas(pool, schema)) {
    try {
      await search(snapshot);
    } catch (error) {
      if (!GONE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
  return found;
}
