import type Database from 'better-sqlite3';
import { toStoredObject, type ObjectRow } from '../rows.js';
import { searchReindexPlan, checkSearchRequest, nearTerms, searchFieldRows, announceReindex, type OnSearchReindex, type SearchableType, type SearchFieldRow, type SearchRequest } from '../search.js';
import type { StoredObject } from '../graph-store.js';

interface SearchParams {
  match: string;
  kind: string;
  limit: number;
  position: number;
  latitude: number;
  longitude: number;
  ky: number;
  kx: number;
  squared: number;
  app: number;
  scope: string;
}

/**
 * The SQLite side of search: an FTS5 table whose rowid is the object id, filled by the triggers
 * of migration 10. A page is one FTS5 query: matches of the words, in rowid order, from a rowid
 * on; each match joins its object by primary key.
 */
export class SqliteSearch {
  private readonly statements = new Map<string, Database.Statement<[SearchParams], ObjectRow>>();
  private readonly reindex: Database.Transaction<(declared: SearchFieldRow[], onReindex?: OnSearchReindex) => void>;

  constructor(private readonly db: Database.Database) {
    // The changed types are indexed again together: one pass over the objects, however many.
    this.reindex = db.transaction((declared: SearchFieldRow[], onReindex?: OnSearchReindex) => {
      const stored = db.prepare<[], SearchFieldRow>('SELECT type, role, key, position FROM search_fields').all();
      const plan = searchReindexPlan(stored, declared);
      const { changed, rows } = plan;
      if (changed.length === 0) return;
      const indexed = JSON.stringify(plan.indexed);
      if (onReindex && rows.length > 0) {
        const counted = db
          .prepare<[string], { type: string; objects: number }>(
            'SELECT type, count(*) AS objects FROM objects WHERE type IN (SELECT value FROM json_each(?)) GROUP BY type ORDER BY type',
          )
          .all(indexed);
        announceReindex(counted, onReindex);
      }
      db.prepare('DELETE FROM search_fields WHERE type IN (SELECT value FROM json_each(?))').run(JSON.stringify(changed));
      const insert = db.prepare('INSERT INTO search_fields (type, role, key, position) VALUES (?, ?, ?, ?)');
      for (const row of rows) insert.run(row.type, row.role, row.key, row.position);
      db.prepare('DELETE FROM search_index WHERE kind IN (SELECT value FROM json_each(?))').run(JSON.stringify(changed));
      db.prepare(
        `INSERT INTO search_index (rowid, kind, latitude, longitude, body)
         SELECT id, type, latitude, longitude, body FROM search_documents WHERE type IN (SELECT value FROM json_each(?))`,
      ).run(indexed);
    });
  }

  declare(types: readonly SearchableType[], onReindex?: OnSearchReindex): void {
    this.reindex.immediate(searchFieldRows(types), onReindex);
  }

  search(request: SearchRequest): StoredObject[] {
    checkSearchRequest(request);
    const backwards = request.before !== undefined;
    const shape = {
      positioned: request.after !== undefined || backwards,
      backwards,
      located: request.located === true || request.near !== undefined,
      near: request.near !== undefined,
      granted: request.grantedTo !== undefined,
    };
    const near = request.near ? nearTerms(request.near) : { latitude: 0, longitude: 0, ky: 0, kx: 0, squared: 0 };
    const rows = this.statement(shape).all({
      // Each word quoted (nothing in it is FTS5 syntax) and matched as a prefix; all must match.
      match: request.words.map((word) => `"${word}"*`).join(' '),
      kind: request.type,
      limit: request.limit,
      position: request.after ?? request.before ?? 0,
      ...near,
      app: request.grantedTo?.appId ?? 0,
      scope: request.grantedTo?.scope ?? '',
    });
    if (backwards) rows.reverse();
    return rows.map((row) => toStoredObject(row));
  }

  private statement(shape: Record<string, boolean>): Database.Statement<[SearchParams], ObjectRow> {
    const key = Object.entries(shape).filter(([, on]) => on).map(([name]) => name).join('+');
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare<[SearchParams], ObjectRow>(searchSql(shape));
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/** The statement of one shape of request; exported so tests can ask SQLite for its plan. */
export function searchSql(shape: { positioned?: boolean; backwards?: boolean; located?: boolean; near?: boolean; granted?: boolean }): string {
  const conditions = ['search_index MATCH @match', 's.kind = @kind'];
  if (shape.positioned) conditions.push(shape.backwards ? 's.rowid < @position' : 's.rowid > @position');
  if (shape.located) conditions.push('s.latitude IS NOT NULL', 's.longitude IS NOT NULL');
  if (shape.near) {
    conditions.push(
      '((s.latitude - @latitude) * @ky) * ((s.latitude - @latitude) * @ky) + ((s.longitude - @longitude) * @kx) * ((s.longitude - @longitude) * @kx) <= @squared',
    );
  }
  if (shape.granted) {
    conditions.push(
      `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = @app AND g.user_id = s.rowid AND g.scope = @scope AND g.status = 'granted')`,
    );
  }
  // CAST, as in page-query.ts: a bare LIMIT parameter would have the statement prepared anew at each bind.
  return `SELECT o.id, o.type, o.owner, o.created_time, o.updated_time, o.data
          FROM search_index s JOIN objects o ON o.id = s.rowid
          WHERE ${conditions.join(' AND ')}
          ORDER BY s.rowid ${shape.backwards ? 'DESC' : 'ASC'} LIMIT CAST(@limit AS INTEGER)`;
}
