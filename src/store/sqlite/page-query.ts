import type { Association } from '../graph-store.js';
import type { PageRequest } from '../page-request.js';

/**
 * A row of a page as an array (raw), cheaper to hand over than an object: id2, time and data. Its
 * id1 and type are the scan's own, so SQLite need not hand them back.
 */
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

/**
 * The page query of one shape: a range scan of associations_by_time for a single id1, which
 * covers every column of the association read (no lookup in its table). Row-value comparisons
 * on (time, id2) match the index order, so equal times are split by id2.
 */
export function pageSql(shape: PageShape): string {
  const conditions = ['a.id1 = @id1', 'a.type = @type'];
  const further = shape.oldest ? '>' : '<';
  const back = shape.oldest ? '<' : '>';
  if (shape.after) conditions.push(`(a.time, a.id2) ${further} (@afterTime, @afterId2)`);
  if (shape.before) conditions.push(`(a.time, a.id2) ${back} (@beforeTime, @beforeId2)`);
  if (shape.since) conditions.push('a.time >= @since');
  if (shape.until) conditions.push('a.time <= @until');
  if (shape.granted) {
    conditions.push(
      `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = @grantAppId AND g.user_id = a.id2
         AND g.scope = @grantScope AND g.status = 'granted')`,
    );
  }
  const forwards = shape.oldest ? 'ASC' : 'DESC';
  const backwards = shape.oldest ? 'DESC' : 'ASC';
  const direction = shape.before ? backwards : forwards;
  // The limit goes in through CAST: SQLite plans with the value of a bare LIMIT parameter, so
  // binding it again (every scan) would prepare the statement anew each time.
  return `SELECT a.id2, a.time, a.data FROM associations a
    WHERE ${conditions.join(' AND ')}
    ORDER BY a.time ${direction}, a.id2 ${direction} LIMIT CAST(@limit AS INTEGER)`;
}

/** The named parameters of a page query, matching exactly the conditions pageSql emits. */
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
