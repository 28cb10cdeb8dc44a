import type pg from 'pg';
import { MEDIA_KEY_PATHS } from '../media-keys.js';
import { quoteIdentifier } from './connection.js';

/** A snapshot dropped between listing and searching it: its schema or table is gone. */
const GONE = new Set(['3F000', '42P01']);

const expression = (path: readonly string[]) => `(data #>> '{${path.join(',')}}')`;

/**
 * The partial indexes on a table of objects that make the lookup one probe a key: migration 15
 * made them on the store's own table, and a snapshot gets them when it is saved.
 */
export function mediaKeyIndexes(schema: string): string[] {
  return MEDIA_KEY_PATHS.map(
    (path) =>
      `CREATE INDEX ${quoteIdentifier(`objects_${path[0]}_key`)} ON ${quoteIdentifier(schema)}.objects (${expression(path)}) WHERE ${expression(path)} IS NOT NULL`,
  );
}

/** `Store.findMediaKeys` on PostgreSQL: the store's own objects, then each snapshot's (one older than the indexes is scanned). */
export async function findMediaKeys(pool: pg.Pool, schema: string, snapshots: readonly string[], keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (keys.length === 0) return found;
  const search = async (owner: string) => {
    const objects = `${quoteIdentifier(owner)}.objects`;
    const sql = MEDIA_KEY_PATHS.map((path) => `SELECT ${expression(path)} AS value FROM ${objects} WHERE ${expression(path)} = ANY($1::text[])`).join(' UNION ');
    const { rows } = await pool.query<{ value: string }>(sql, [[...keys]]);
    for (const row of rows) found.add(row.value);
  };
  await search(schema);
  for (const snapshot of snapshots) {
    try {
      await search(snapshot);
    } catch (error) {
      if (!GONE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
  return found;
}
