import type { Association } from '../graph-store.js';
import type { PageRequest } from '../page-request.js';

/** A row of a page: id2, time and data. Its id1 and type are the scan's own, so SQLite need not hand them back. */
export type AssociationRow = [id2: number, time: number, data: string | null];

/** Which optional conditions a page query carries; each combination is one prepared statement. */
export interface PageShape {
  after: boolean;
  before: boolean;
  since: boolean;
  until: boolean;
  granted: boolean;
  oldest: boolean;
}

export type PageParams = Record<string, number | string>;

/** A shape's page query, and which parameter each of its `?` stands for, in order. */
export interface PageQuery {
  sql: string;
  names: readonly string[];
}

/**
 * The page query of one shape: a range scan of associations_by_time for a single id1, which
 * covers every column of the association read (no lookup in its table). Row-value comparisons
 * on (time, id2) match the index order, so equal times are split by id2. Its parameters are
 * positional: better-sqlite3 binds a named one by making a JavaScript string of its name at
 * every call, which cost a sixth of each scan of a few rows.
 */
export function pageQuery(shape: PageShape): PageQuery {
  const names: string[] = [];
  const conditions: string[] = [];
  // Each `?` is written together with the name it stands for, so the two lists cannot part.
  const condition = (sql: string, ...params: string[]) => {
    conditions.push(sql);
    names.push(...params);
  };
  condition('a.id1 = ?', 'id1');
  condition('a.type = ?', 'type');
  const further = shape.oldest ? '>' : '<';
  const back = shape.oldest ? '<' : '>';
  if (shape.after) condition(`(a.time, a.id2) ${further} (?, ?)`, 'afterTime', 'afterId2');
  if (shape.before) condition(`(a.time, a.id2) ${back} (?, ?)`, 'beforeTime', 'beforeId2');
  if (shape.since) condition('a.time >= ?', 'since');
  if (shape.until) condition('a.time <= ?', 'until');
  if (shape.granted) {
    condition(
      `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = ? AND g.user_id = a.id2
         AND g.scope = ? AND g.status = 'granted')`,
      'grantAppId',
      'grantScope',
    );
  }
  const forwards = shape.oldest ? 'ASC' : 'DESC';
  const backwards = shape.oldest ? 'DESC' : 'ASC';
  const direction = shape.before ? backwards : forwards;
  names.push('limit');
  // The limit goes in through CAST: SQLite plans with the value of a bare LIMIT parameter, so
  // binding it again (every scan) would prepare the statement anew each time.
  // The rows come as one JSON array, in the order the scan reads them (an aggregate takes the rows
  // of a subquery with a LIMIT in its order): better-sqlite3, built for Node 20, stores each column
  // of each row it hands back through V8's slowest way of setting an element, which cost more
  // than the scan itself; JSON.parse builds the same arrays in a fraction of that.
  const sql = `SELECT json_group_array(json_array(id2, time, data)) FROM (
    SELECT a.id2, a.time, a.data FROM associations a
    WHERE ${conditions.join(' AND ')}
    ORDER BY a.time ${direction}, a.id2 ${direction} LIMIT CAST(? AS INTEGER))`;
  return { sql, names };
}

/** The parameters of a page query by name: every one the conditions of pageQuery name. */
export function pageParams(request: PageRequest): PageParams {
  const params: PageParams = { type: request.type, limit: request.limit };
  if (request.after) {
    params.afterTime = request.after.time;
    params.afterId2 = request.after.id2;
  }
  if (request.before) {
    params.beforeTime = request.before.time;
    params.beforeId2 = request.before.id2;
  }
  if (request.since !== undefined) params.since = request.since;
  if (request.until !== undefined) params.until = request.until;
  if (request.id2GrantedTo) {
    params.grantAppId = request.id2GrantedTo.appId;
    params.grantScope = request.id2GrantedTo.scope;
  }
  return params;
}

/** Sets the position one id1's page reads on from (PageRequest.resumeAt) in the parameters of its scan. */
export function resumeParams(params: PageParams, request: PageRequest, id1: number): void {
  if (request.resumeAt === undefined) return;
  const position = request.resumeAt.get(id1);
  if (position === undefined) throw new RangeError(`A resumed page read names no position for ${id1}`);
  if (request.before !== undefined) {
    params.beforeTime = position.time;
    params.beforeId2 = position.id2;
  } else {
    params.afterTime = position.time;
    params.afterId2 = position.id2;
  }
}

export function toAssociation(id1: number, type: string, id2: number, time: number, data: string | null): Association {
  return { id1, type, id2, time, data: data === null ? null : (JSON.parse(data) as Record<string, unknown>) };
}
