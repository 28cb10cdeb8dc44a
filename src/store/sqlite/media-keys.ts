import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { MEDIA_KEY_PATHS } from '../media-keys.js';

/**
 * The lookup by the indexes of migration 16: each path's expression is written as the index
 * has it, which SQLite needs to use the index. A snapshot file is a copy with those indexes
 * (a snapshot older than them is scanned); each is opened read-only on its own, so the store's
 * connection is left as it is.
 */
const SQL = MEDIA_KEY_PATHS.map(
  (path) => `SELECT json_extract(data, '$.${path.join('.')}') AS value FROM objects WHERE json_extract(data, '$.${path.join('.')}') IN (SELECT value FROM json_each(?))`,
).join(' UNION ');

export function findMediaKeys(db: Database.Database, snapshotFiles: readonly string[], keys: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (keys.length === 0) return found;
  const list = JSON.stringify(keys);
  const search = (source: Database.Database) => {
    for (const value of source.prepare(SQL).pluck().all(...MEDIA_KEY_PATHS.map(() => list))) if (typeof value === 'string') found.add(value);
  };
  search(db);
  for (const file of snapshotFiles) {
    let snapshot: Database.Database;
    try {
      snapshot = new Database(file, { readonly: true, fileMustExist: true });
    } catch (error) {
      // Deleted since it was listed: it holds nothing any more.
      if (!existsSync(file)) continue;
      throw error;
    }
    try {
      search(snapshot);
    } finally {
      snapshot.close();
    }
  }
  return found;
}
