import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { checkDataPaths } from '../data-values.js';

/**
 * `Store.findDataValues` on SQLite: one scan of the objects of the store's own file and of each
 * snapshot file, each opened read-only on its own, so the store's connection is left as it is.
 */
export function findDataValues(db: Database.Database, snapshotFiles: readonly string[], paths: readonly string[], values: readonly string[]): Set<string> {
  checkDataPaths(paths);
  const found = new Set<string>();
  if (values.length === 0 || paths.length === 0) return found;
  const sql = `SELECT DISTINCT value FROM (${paths.map(() => 'SELECT json_extract(data, ?) AS value FROM objects').join(' UNION ALL ')})
               WHERE value IN (SELECT value FROM json_each(?))`;
  const params = [...paths.map((path) => `$.${path}`), JSON.stringify(values)];
  const search = (source: Database.Database) => {
    for (const value of source.prepare(sql).pluck().all(...params) as unknown[]) if (typeof value === 'string') found.add(value);
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
