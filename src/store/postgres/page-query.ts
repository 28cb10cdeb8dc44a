import type { PageRequest } from '../page-request.js';

export interface NamedQuery {
  /** Each connection prepares a named query once and then only binds and executes it. */
  name: string;
  text: string;
  values: unknown[];
  /** Rows come as arrays in the order of `PageColumns`: the driver builds no object per row. */
  rowMode: 'array';
}

/** Where each column of a page query's row is (`-1` for the owner when the page is not merged). */
export interface PageColumns {
  id1: number;
  owner: number;
  id2: number;
  time: number;
  data: number;
  /** Then type, owner, created_time, updated_time and data of the object (with objects). */
  object: number;
  /**
   * The scopes the object granted `grantsTo` (on the row with its data), then those its owner
   * granted (on one row per owner), with objects and `grantsTo`.
   */
  objectScopes: number;
}

export function pageColumns(request: PageRequest): PageColumns {
  const merged = request.through === undefined ? 0 : 1;
  return { id1: 0, owner: merged === 0 ? -1 : 1, id2: 1 + merged, time: 2 + merged, data: 3 + merged, object: 4 + merged, objectScopes: 9 + merged };
}

/**
 * The pages of many id1s in one statement: each id1 of the array drives a LATERAL keyset scan of
 * associations_by_time, so every page costs an index range scan and the whole level one round
 * trip. Row-value comparisons on (time, id2) follow the index order, so equal times are split
 * by id2. Each combination of optional conditions is its own prepared statement. `withObjects`
 * joins each id2's object (its columns prefixed `object_`, null when there is none; its data
 * only on the first row that lists it), and with `grantsTo` the permissions the object granted
 * the app (`object_scopes`, on that same row) and those its owner granted (`owner_scopes`, on the
 * first row of each owner): a lookup of the grants per object and per owner, made after each scan
 * has stopped at its limit, so it never changes which rows are read.
 */
export function pageQuery(request: PageRequest, id1s: readonly number[], withObjects = false): NamedQuery {
  const values: unknown[] = [id1s, request.type, request.limit];
  const parameter = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const oldest = request.order === 'oldest';
  const further = oldest ? '>' : '<';
  const back = oldest ? '<' : '>';
  const shape: string[] = [];
  // Through another list, each owner (id1 and every node it lists there) gets its own range scan.
  let through: string | undefined;
  if (request.through !== undefined) {
    shape.push('through');
    const listed = [`t.id1 = p.id1`, `t.type = ${parameter(request.through.type)}`];
    const granted = request.through.grantedTo;
    if (granted) {
      shape.push('through-granted');
      listed.push(
        `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = ${parameter(granted.appId)}::bigint
           AND g.user_id = t.id2 AND g.scope = ${parameter(granted.scope)} AND g.status = 'granted')`,
      );
    }
    through = listed.join(' AND ');
  }
  const conditions = [through === undefined ? 'a.id1 = p.id1' : 'a.id1 = o.owner', 'a.type = $2'];
  // A resumed page reads on from each id1's own position, which comes with the id1 (p).
  const resumed = request.resumeAt;
  let resumeColumns = '';
  if (resumed !== undefined) {
    shape.push('resumed');
    const positions = id1s.map((id1) => {
      const position = resumed.get(id1);
      if (position === undefined) throw new RangeError(`A resumed page read names no position for ${id1}`);
      return position;
    });
    resumeColumns = `, ${parameter(positions.map((position) => position.time))}::bigint[], ${parameter(positions.map((position) => position.id2))}::bigint[]`;
  }
  const resumeAt = '(p.resume_time, p.resume_id2)';
  if (request.after || (resumed !== undefined && !request.before)) {
    shape.push('after');
    const position = resumed !== undefined ? resumeAt : `(${parameter(request.after!.time)}::bigint, ${parameter(request.after!.id2)}::bigint)`;
    conditions.push(`(a.time, a.id2) ${further} ${position}`);
  }
  if (request.before) {
    shape.push('before');
    const position = resumed !== undefined ? resumeAt : `(${parameter(request.before.time)}::bigint, ${parameter(request.before.id2)}::bigint)`;
    conditions.push(`(a.time, a.id2) ${back} ${position}`);
  }
  if (request.since !== undefined) {
    shape.push('since');
    conditions.push(`a.time >= ${parameter(request.since)}::bigint`);
  }
  if (request.until !== undefined) {
    shape.push('until');
    conditions.push(`a.time <= ${parameter(request.until)}::bigint`);
  }
  if (request.id2GrantedTo) {
    shape.push('granted');
    conditions.push(
      `EXISTS (SELECT 1 FROM grants g WHERE g.app_id = ${parameter(request.id2GrantedTo.appId)}::bigint
         AND g.user_id = a.id2 AND g.scope = ${parameter(request.id2GrantedTo.scope)} AND g.status = 'granted')`,
    );
  }
  if (oldest) shape.push('oldest');
  if (withObjects) shape.push('objects');
  // An object listed on several pages (a person who liked many of the posts) comes with its data
  // and the permissions it granted on one row only, and an owner with its permissions on one row
  // only: the data is most of a row and would otherwise cross the wire and be decoded each time,
  // and the permissions cost a subquery each.
  const once = (column: string, window = 'same_object') => `CASE WHEN row_number() OVER ${window} = 1 THEN ${column} END`;
  let grantColumns = '';
  const windows = ['same_object AS (PARTITION BY a.id2)'];
  if (withObjects && request.grantsTo !== undefined) {
    shape.push('grants');
    const app = parameter(request.grantsTo);
    // As JSON, which decodes natively: an array of text decodes a character at a time in JavaScript.
    const granted = (person: string) =>
      `to_json(ARRAY(SELECT g.scope FROM grants g WHERE g.app_id = ${app}::bigint AND g.user_id = ${person} AND g.status = 'granted'))`;
    grantColumns = `, ${once(granted('o.id'))} AS object_scopes, ${once(granted('o.owner'), 'same_owner')} AS owner_scopes`;
    windows.push('same_owner AS (PARTITION BY o.owner)');
  }
  const listed = oldest ? 'ASC' : 'DESC';
  // A `before` page is read backwards from the position; the outer ORDER BY turns it round.
  const scanned = request.before ? (oldest ? 'DESC' : 'ASC') : listed;
  const objectColumns = withObjects
    ? ', o.type AS object_type, o.owner AS object_owner, o.created_time AS object_created_time, o.updated_time AS object_updated_time, ' +
      `${once('o.data::text')} AS object_data`
    : '';
  const scan = `SELECT${through === undefined ? '' : ' a.id1 AS owner,'} a.id2, a.time, a.data FROM associations a
      WHERE ${conditions.join(' AND ')}
      ORDER BY a.time ${scanned}, a.id2 ${scanned}
      LIMIT $3`;
  // Merged, the `limit` rows nearest the position across every owner's scan make the page.
  const page =
    through === undefined
      ? scan
      : `SELECT m.owner, m.id2, m.time, m.data
      FROM (SELECT p.id1 AS owner UNION ALL SELECT t.id2 FROM associations t WHERE ${through}) o
      CROSS JOIN LATERAL (${scan}) m
      ORDER BY m.time ${scanned}, m.id2 ${scanned}
      LIMIT $3`;
  // A merged row names the owner it came from (`owner`); a plain one belongs to p.id1.
  const text = `SELECT p.id1${through === undefined ? '' : ', a.owner'}, a.id2, a.time, a.data${objectColumns}${grantColumns}
    FROM unnest($1::bigint[]${resumeColumns}) WITH ORDINALITY AS p (id1, ${resumed === undefined ? '' : 'resume_time, resume_id2, '}n)
    CROSS JOIN LATERAL (
      ${page}
    ) a${withObjects ? '\n    LEFT JOIN objects o ON o.id = a.id2\n    WINDOW ' + windows.join(', ') : ''}
    ORDER BY p.n, a.time ${listed}, a.id2 ${listed}`;
  return { name: `loom.page.${shape.join('+') || 'plain'}`, text, values, rowMode: 'array' };
}
