import type pg from 'pg';
import { toStoredObject, type ObjectRow } from '../rows.js';
import { searchReindexPlan, checkSearchRequest, nearTerms, searchFieldRows, announceReindex, type OnSearchReindex, type SearchableType, type SearchFieldRow, type SearchRequest } from '../search.js';
import type { StoredObject } from '../graph-store.js';

/** Second key of the advisory lock that makes processes declaring at once take turns. */
const DECLARE_LOCK = 0x73726368;

/**
 * Makes search_fields hold the declaration and reindexes, from the stored objects, the types
 * whose declaration changed, all of them in one pass over the objects table (a type with no
 * objects costs nothing more); in the caller's transaction.
 */
export async function declareSearchable(client: pg.ClientBase, types: readonly SearchableType[], onReindex?: OnSearchReindex): Promise<void> {
  const declared = searchFieldRows(types);
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [DECLARE_LOCK]);
  const { rows: stored } = await client.query<SearchFieldRow>('SELECT type, role, key, position FROM search_fields');
  const { changed, rows, indexed } = searchReindexPlan(stored, declared);
  if (changed.length === 0) return;
  if (onReindex && indexed.length > 0) {
    const { rows: counted } = await client.query<{ type: string; objects: number }>(
      'SELECT type, count(*)::int AS objects FROM objects WHERE type = ANY($1) GROUP BY type ORDER BY type',
      [indexed],
    );
    announceReindex(counted, onReindex);
  }
  await client.query('DELETE FROM search_fields WHERE type = ANY($1)', [changed]);
  await client.query(
    `INSERT INTO search_fields (type, role, key, position)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])`,
    [rows.map((row) => row.type), rows.map((row) => row.role), rows.map((row) => row.key), rows.map((row) => row.position)],
  );
  await client.query('DELETE FROM search_documents WHERE kind = ANY($1)', [changed]);
  if (indexed.length > 0) {
    await client.query('INSERT INTO search_documents SELECT d.* FROM objects o, search_document(o) d WHERE o.type = ANY($1)', [indexed]);
  }
}

export interface SearchShape {
  positioned?: boolean;
  backwards?: boolean;
  located?: boolean;
  near?: boolean;
  granted?: boolean;
}

/**
 * The statement of one shape of request, numbered parameters: $1 the tsquery text, $2 the type,
 * $3 the limit, then the position, the distance terms and the grant, in that order, as present.
 * Exported so tests can ask PostgreSQL for its plan.
 */
export function searchSql(shape: SearchShape): string {
  const conditions = [`s.document @@ to_tsquery('simple', $1)`, 's.kind = $2'];
  let next = 4;
  // `+ 0` keeps the position from being read off the primary key: a position near the start
  // would otherwise walk most of the table in id order rather than look the words up.
  if (shape.positioned) conditions.push(`s.id + 0 ${shape.backwards ? '<' : '>'} $${next++}`);
  if (shape.located) conditions.push('s.latitude IS NOT NULL', 's.longitude IS NOT NULL');
  if (shape.near) {
    const [latitude, longitude, ky, kx, squared] = [next, next + 1, next + 2, next + 3, next + 4].map((n) => `$${n}`);
    next += 5;
    conditions.push(
      `((s.latitude - ${latitude}) * ${ky}) ^ 2 + ((s.longitude - ${longitude}) * ${kx}) ^ 2 <= ${squared}`,
    );
  }
  if (shape.granted) {
    conditions.push(
      `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = $${next} AND g.user_id = s.id AND g.scope = $${next + 1} AND g.status = 'granted')`,
    );
  }
  return `SELECT o.id, o.type, o.owner, o.created_time, o.updated_time, o.data
          FROM search_documents s JOIN objects o ON o.id = s.id
          WHERE ${conditions.join(' AND ')}
          ORDER BY s.id ${shape.backwards ? 'DESC' : 'ASC'} LIMIT $3`;
}

function searchShape(request: SearchRequest): SearchShape {
  return {
    positioned: request.after !== undefined || request.before !== undefined,
    backwards: request.before !== undefined,
    located: request.located === true || request.near !== undefined,
    near: request.near !== undefined,
    granted: request.grantedTo !== undefined,
  };
}

export async function search(pool: pg.Pool, request: SearchRequest): Promise<StoredObject[]> {
  checkSearchRequest(request);
  const shape = searchShape(request);
  // Each word is letters and digits only (checked above), so none of it is tsquery syntax.
  const values: unknown[] = [request.words.map((word) => `${word.toLowerCase()}:*`).join(' & '), request.type, request.limit];
  if (shape.positioned) values.push(request.after ?? request.before);
  if (request.near) {
    const near = nearTerms(request.near);
    values.push(near.latitude, near.longitude, near.ky, near.kx, near.squared);
  }
  if (request.grantedTo) values.push(request.grantedTo.appId, request.grantedTo.scope);
  const { rows } = await pool.query<ObjectRow>({ name: `loom.search:${Object.entries(shape).filter(([, on]) => on).map(([k]) => k).join('+')}`, text: searchSql(shape), values });
  if (shape.backwards) rows.reverse();
  return rows.map((row) => toStoredObject(row));
}
