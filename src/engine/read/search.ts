import { GraphError } from '../../errors.js';
import { parseFields } from '../../query/parser.js';
import { rules } from '../../schema/versions.js';
import { DEFAULT_SEARCH_DISTANCE, MAX_SEARCH_DISTANCE, searchType, type SearchTypeDef } from '../../schema/search-types.js';
import { MAX_SEARCH_WORDS, type SearchRequest } from '../../store/search.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import { readEdgeOptions, type EdgeOptions } from './edge-options.js';
import { offsetPaging } from './offset-paging.js';
import { renderNodes } from './render.js';
import type { Json } from '../../ids.js';
import { visibleObjects } from '../access/visibility.js';

const UNSUPPORTED_GET = 'Unsupported get request. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api';
/** Longest word the index is asked for; nobody types longer ones. */
const MAX_WORD_LENGTH = 64;

/**
 * `GET /search?q=…&type=…`: one page of the nodes of that type whose searchable text holds
 * every word of `q` (each as the start of a word), answered by the store's full-text index, in
 * a stable order (ascending id) so the same graph always gives the same pages. Only what the
 * viewer may see is shown, and people only when they use the app.
 */
export async function answerSearch(context: ReadContext, params: Record<string, string>): Promise<Json> {
  const kind = searchType((params.type ?? '').trim().toLowerCase());
  // A type the service does not search (or none) got its bare "Unsupported get request"
  // (jgorset/facepy#166; arsduo/koala#575 calls the answer to a missing type cryptic).
  if (!kind) throw new GraphError(100, UNSUPPORTED_GET, { type: 'GraphMethodException' });
  if (kind.needsUser && context.viewer.userId === null) throw GraphError.permission('Must have a valid access_token to access this endpoint');
  const q = params.q;
  // Without q the service looked for a node and found none (arsduo/koala#256), as `/` does.
  if (q === undefined || q.trim() === '') throw GraphError.invalidParameter('No node specified');
  const words = searchWords(q);
  const near = kind.near ? readNear(params) : undefined;
  const options = readEdgeOptions(params, context.limits);
  const target = context.schema.searchTarget(kind.name);
  // A word no node type claims (nothing is found as one yet), or a q of punctuation only.
  if (!target || words.length === 0 || options.limit === 0) return { data: [] };

  const cursorName = `search:${kind.name}`;
  const decode = (cursor: string | undefined) => (cursor === undefined ? undefined : context.cursors.decode(cursorName, cursor).id2);
  const request: SearchRequest = {
    type: target.type.name,
    words,
    limit: options.limit + 1,
    after: decode(options.after),
    before: decode(options.before),
    located: target.located,
    near,
    // People are listed only when they use the app: the store keeps the others out of the page.
    grantedTo: target.type.idForm === 'user' ? { appId: context.viewer.app.id, scope: context.schema.permissions.alwaysGranted } : undefined,
  };
  await context.budget.pace();
  const found = await context.store.search(request);
  context.budget.spendItems(found.length);
  const more = found.length > options.limit;
  // Reading backwards, the surplus object is the first of the list; forwards, the last.
  const rows = !more ? found : options.before !== undefined ? found.slice(1) : found.slice(0, options.limit);
  if (rows.length === 0) return { data: [] };

  const visible = await visibleObjects(context, rows);
  const selections =
    params.fields !== undefined ? parseFields(params.fields)
    : target.fullDefaultFields && !rules.has('minimal-default-fields', context.version) ? parseFields(target.fullDefaultFields.join(','))
    : undefined;
  const rendered = await renderNodes(context, target.type, visible, selections);
  const data = visible.map((object) => rendered.get(object.id)!);
  const paging = pagingOf(context, kind, cursorName, rows, more, options, params);
  return Object.keys(paging).length === 0 ? { data } : { data, paging };
}

/** The words of `q`: runs of letters and digits, lower-cased. */
function searchWords(q: string): string[] {
  const words = q.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  if (words.length > MAX_SEARCH_WORDS) throw GraphError.invalidParameter(`The parameter q may hold at most ${MAX_SEARCH_WORDS} words`);
  if (words.some((word) => word.length > MAX_WORD_LENGTH)) throw GraphError.invalidParameter(`A word of the parameter q may be at most ${MAX_WORD_LENGTH} characters long`);
  return words;
}

const DEGREES = /^\s*(-?\d{1,3}(?:\.\d{1,12})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,12})?)\s*$/;

/** `center=<latitude>,<longitude>` and `distance` (metres); none without a centre. */
function readNear(params: Record<string, string>): SearchRequest['near'] {
  const { center, distance } = params;
  if (center === undefined || center === '') {
    if (distance !== undefined && distance !== '') throw GraphError.invalidParameter('The parameter distance can only be used with center');
    return undefined;
  }
  const match = DEGREES.exec(center);
  const [latitude, longitude] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!match || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw GraphError.invalidParameter('The parameter center must be a latitude and a longitude in degrees, such as 37.76,-122.42');
  }
  let meters = DEFAULT_SEARCH_DISTANCE;
  if (distance !== undefined && distance !== '') {
    if (!/^\s*\d{1,9}\s*$/.test(distance) || Number(distance) > MAX_SEARCH_DISTANCE) {
      throw GraphError.invalidParameter(`The parameter distance must be a whole number of meters up to ${MAX_SEARCH_DISTANCE}`);
    }
    meters = Number(distance);
  }
  return { latitude, longitude, meters };
}

/** Links that repeat the request with the position replaced: by offset for most types, by cursor for places. */
function pagingOf(
  context: ReadContext,
  kind: SearchTypeDef,
  cursorName: string,
  rows: readonly StoredObject[],
  more: boolean,
  options: EdgeOptions,
  requestParams: Record<string, string>,
): Json {
  const before = context.cursors.encode(cursorName, { time: 0, id2: rows[0]!.id });
  const after = context.cursors.encode(cursorName, { time: 0, id2: rows[rows.length - 1]!.id });
  const backwards = options.before !== undefined;
  const positioned = backwards || options.after !== undefined;
  const params: Record<string, string> = { ...requestParams };
  for (const name of ['after', 'before', 'offset', '__after_id', '__before_id']) delete params[name];
  params.limit = String(options.limit);
  const link = (query: Record<string, string>) => context.link('/search', { ...params, ...query });
  if (kind.paging === 'offset') return offsetPaging({ link, before, after, page: { rows, more }, options, positioned, backwards });
  const paging: Json = { cursors: { before, after } };
  if (positioned && (!backwards || more)) paging.previous = link({ before });
  if (backwards || more) paging.next = link({ after });
  return paging;
}
