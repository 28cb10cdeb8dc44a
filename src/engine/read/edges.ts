import { printFields } from '../../query/print.js';
import type { Selection } from '../../query/selection.js';
import type { EdgeDef, NodeTypeDef } from '../../schema/definition.js';
import type { ItemFlag } from '../../schema/item-extras.js';
import type { Association, StoredObject } from '../../store/graph-store.js';
import type { PageRequest } from '../../store/page-request.js';
import type { ReadContext } from '../request/context.js';
import { readEdgeOptions, type EdgeOptions } from './edge-options.js';
import { listingOf, type Listing } from './listing.js';
import { externalId } from './node-ids.js';
import { itemsAreNodes, renderEdgeItems, shownRows } from './edge-items.js';
import { readFilledPages, type FilledPages, type Page } from './filled-pages.js';
import type { Json } from '../../ids.js';
import type { DefaultShape } from './plan.js';
import { loadCatalogueEdge } from './catalogue-edges.js';
import { loadSummaries } from './summaries.js';
import { offsetPaging } from './offset-paging.js';
import { timePaging } from './time-paging.js';
import { rules } from '../../schema/versions.js';
import { graphTime } from '../../clock/graph-time.js';
import { unemulatedEdge, type UnemulatedAnswer } from '../../schema/unemulated.js';
import { GraphError } from '../../errors.js';
import { allGrantsKnown, countGrantChecks, grantsKnownTo, rememberGrantedScopes } from '../access/person-grants.js';

export interface EdgeRequest {
  /** Paging options as written: query parameters for an edge path, modifiers for a nested edge. */
  raw: Record<string, string | undefined>;
  children: Selection[] | undefined;
  /** Nested edges leave out an empty collection; an edge path answers `{"data":[]}`. */
  nested: boolean;
  /** For an edge path: the request's own parameters, which its paging links repeat. */
  requestParams?: Record<string, string>;
  /** What the items show when `children` names nothing; as listed nodes when absent. */
  itemShape?: DefaultShape;
}

/** One page of the edge for each parent, loaded together: one page query with its objects, one summary load. */
export async function loadEdge(
  context: ReadContext,
  parentType: NodeTypeDef,
  edge: EdgeDef,
  parents: readonly StoredObject[],
  request: EdgeRequest,
): Promise<Map<number, Json | undefined>> {
  const options = readEdgeOptions(request.raw, context.limits);
  await context.budget.pace();
  if (edge.servedWhile && !rules.has(edge.servedWhile, context.version)) {
    throw GraphError.deprecated(edge.name, rules.until(edge.servedWhile) ?? context.version);
  }
  const unemulated = unemulatedEdge(parentType.name, edge.name);
  if (unemulated) return unemulatedAnswer(unemulated.answer, parents, request.nested);
  if (edge.special) return edge.special.load(context, parents, request.nested);
  if (edge.catalogue) return loadCatalogueEdge(edge.catalogue, parents, request.children);
  const result = new Map<number, Json | undefined>();
  if (parents.length === 0) return result;

  const wantsSummary = wantsCounts(edge, options);
  const listing = listingOf(edge, options);
  const [{ pages, nodes }, summaries] = await Promise.all([
    loadPages(context, edge, listing, parents, options),
    wantsSummary ? loadSummaries(context, edge, listing, parents) : undefined,
  ]);
  const declaredItemField = edge.byType?.itemField;
  const itemField = declaredItemField && rules.allows(declaredItemField.versions, context.version) ? declaredItemField : undefined;
  const itemFlag = edge.itemFlag && rules.allows(edge.itemFlag.versions, context.version) ? edge.itemFlag : undefined;
  const itemTime = edge.itemTime && rules.allows(edge.itemTime.versions, context.version) ? edge.itemTime : undefined;
  const itemData = edge.itemData && rules.allows(edge.itemData.versions, context.version) ? edge.itemData : undefined;
  const children = [itemField?.name, itemFlag?.name, itemTime?.name, itemData?.name].reduce(withoutItemField, request.children);
  // A loop, not flatMap(): this V8 reads each element of flatMap()'s lists through a generic lookup.
  const rows: Association[] = [];
  for (const page of pages.values()) for (const row of page.rows) rows.push(row);
  const rendered = await renderEdgeItems(context, edge, rows, { children, shape: request.itemShape }, nodes);
  const itemValue = itemField && listing.type !== undefined && wantsItemField(request.children, itemField.name) ? itemField.values[listing.type] : undefined;
  const flagged = itemFlag && wantsItemField(request.children, itemFlag.name) ? await flagsOf(context, itemFlag, pages) : undefined;
  // What each item carries beside its own fields, in this order.
  const additions: Array<(row: Association, parent: StoredObject) => [string, unknown]> = [];
  if (itemValue !== undefined) additions.push(() => [itemField!.name, itemValue]);
  if (itemTime && wantsItemField(request.children, itemTime.name)) additions.push((row) => [itemTime.name, graphTime(row.time)]);
  if (flagged) additions.push((row, parent) => [itemFlag!.name, flagged.has(flagKey(itemFlag!, row, parent))]);
  if (itemData && wantsItemField(request.children, itemData.name)) additions.push((row) => [itemData.name, row.data?.[itemData.name]]);
  const itemOf = (row: Association, parent: StoredObject) => withFields(rendered(row), additions.map((addition) => addition(row, parent)));

  // The parameters the paging links repeat are the same for every parent: worked out once, when a page needs them.
  let linkParams: Record<string, string> | undefined;
  for (const parent of parents) {
    const page = pages.get(parent.id) ?? { rows: [], more: false };
    const data = page.rows.map((row) => itemOf(row, parent)).filter((item): item is Json => item !== undefined);
    const collection: Json = { data };
    if (page.rows.length > 0) {
      linkParams ??= request.nested ? nestedParams(context, options, request.children) : topLevelParams(options, request);
      collection.paging = pagingOf(context, parentType, edge, parent, page, options, linkParams);
    }
    const summary = summaries?.get(parent.id);
    if (summary) collection.summary = summary;
    const empty = page.rows.length === 0 && !summary;
    result.set(parent.id, empty && request.nested ? undefined : collection);
  }
  return result;
}

/** An edge of a product Loom does not emulate answers as the real service answered an ordinary app. */
function unemulatedAnswer(answer: UnemulatedAnswer, parents: readonly StoredObject[], nested: boolean): Map<number, Json | undefined> {
  if (answer.kind === 'error') {
    throw new GraphError(answer.code, answer.message, answer.refusal === 'permission' ? { status: 403, authenticate: 'insufficient_scope' } : {});
  }
  return new Map(parents.map((parent) => [parent.id, nested ? undefined : { data: [] }]));
}

/** The selection without the item field, which is no field of the items' type; only `id` when it named nothing else. */
function withoutItemField(children: Selection[] | undefined, name: string | undefined): Selection[] | undefined {
  if (name === undefined || !children || children.length === 0) return children;
  const rest = children.filter((selection) => selection.name !== name);
  return rest.length > 0 ? rest : [{ name: 'id', modifiers: {}, position: 0 }];
}

function wantsItemField(children: Selection[] | undefined, name: string): boolean {
  return !children || children.length === 0 || children.some((selection) => selection.name === name);
}

/** The item with these fields after its own; a field without a value (null or absent) is left out. */
function withFields(item: Json | undefined, fields: ReadonlyArray<[string, unknown]>): Json | undefined {
  if (item === undefined || fields.length === 0) return item;
  const out = { ...item };
  for (const [name, value] of fields) if (value !== undefined && value !== null) out[name] = value;
  return out;
}

/** The pairs of the listed pages linked under the flag's association: one store call for every parent. */
async function flagsOf(context: ReadContext, flag: ItemFlag, pages: ReadonlyMap<number, { rows: readonly Association[] }>): Promise<Set<string>> {
  const pairs = [...pages].flatMap(([parent, page]) => page.rows.map((row) => (flag.of === 'item' ? [row.id2, parent] as const : [parent, row.id2] as const)));
  return pairs.length === 0 ? new Set() : context.store.getExisting(flag.assoc, pairs);
}

const flagKey = (flag: ItemFlag, row: Association, parent: StoredObject) => (flag.of === 'item' ? `${row.id2}:${parent.id}` : `${parent.id}:${row.id2}`);

/** The filled pages of the edge for these parents (filled-pages.ts); none when it lists nothing. */
async function loadPages(
  context: ReadContext,
  edge: EdgeDef,
  listing: Listing,
  parents: readonly StoredObject[],
  options: EdgeOptions,
): Promise<FilledPages> {
  const request = pageRequestOf(context, edge, listing, parents.map((parent) => parent.id), options);
  if (request === undefined) return { pages: new Map(), nodes: new Map() };
  return readFilledPages(
    context,
    request,
    options.limit,
    // Items that are plain objects come with the page, and so do the permissions they (or their
    // authors) granted the viewer's app, which decide what of them shows: one round trip per level.
    async (pageRequest) => {
      const read = await readPage(context, pageRequest, edge);
      if (pageRequest.grantsTo !== undefined) countGrantChecks(context, read.objects?.size ?? 0);
      if (read.grantedScopes) rememberGrantedScopes(context, read.grantedScopes);
      return read;
    },
    (rows, objects) => shownRows(context, edge, rows, objects),
  );
}

/** The page read an edge makes for these parents; none when it lists nothing. */
function pageRequestOf(context: ReadContext, edge: EdgeDef, listing: Listing, id1s: number[], options: EdgeOptions): PageRequest | undefined {
  if (!listing.assoc || options.limit === 0) return undefined;
  const decode = (cursor: string | undefined) => (cursor === undefined ? undefined : context.cursors.decode(edge.name, cursor));
  return {
    type: listing.assoc,
    order: listing.order,
    id1s,
    limit: options.limit + 1,
    after: decode(options.after),
    before: decode(options.before),
    since: options.since,
    until: options.until,
    // The timelines of people who never used the viewer's app stay closed to it: their lists are left out.
    through: edge.through === undefined ? undefined : { type: edge.through, grantedTo: { appId: context.viewer.app.id, scope: context.schema.permissions.alwaysGranted } },
    id2GrantedTo: edge.itemsGranted ? { appId: context.viewer.app.id, scope: edge.itemsGranted } : undefined,
    // Grants of the people listed come along, unless the request knows everyone's already.
    grantsTo: itemsAreNodes(edge) && !allGrantsKnown(context) ? context.viewer.app.id : undefined,
  };
}

/**
 * Starts the page read loadEdge will make for these parents, before the parents are loaded and
 * checked, so that it shares their round trip. The read is only remembered (RequestPages): it
 * shows nothing unless loadEdge, after every check, asks for that very page. An edge that reads
 * no plain page, or options loadEdge would refuse, start nothing: loadEdge answers them itself.
 */
export function startPageRead(context: ReadContext, parentType: NodeTypeDef, edge: EdgeDef, parentIds: number[], raw: EdgeRequest['raw']): void {
  if (edge.special || edge.catalogue || unemulatedEdge(parentType.name, edge.name) || (edge.servedWhile && !rules.has(edge.servedWhile, context.version))) return;
  let request: PageRequest | undefined;
  let counted: string | undefined;
  try {
    const options = readEdgeOptions(raw, context.limits);
    const listing = listingOf(edge, options);
    request = pageRequestOf(context, edge, listing, parentIds, options);
    if (wantsCounts(edge, options)) counted = listing.assoc;
  } catch {
    return;
  }
  if (request !== undefined) readPage(context, request, edge).catch(() => undefined);
  if (counted !== undefined) context.pages.counts(counted, parentIds).catch(() => undefined);
}

/** The page read of an edge, once per request: grants this request can already tell need not come along. */
function readPage(context: ReadContext, request: PageRequest, edge: EdgeDef) {
  return context.pages.read(request, itemsAreNodes(edge), grantsKnownTo(context));
}

/** Whether the edge's collection carries a summary; a merged list (a news feed) has no single count to total it by. */
function wantsCounts(edge: EdgeDef, options: EdgeOptions): boolean {
  return (options.summary || edge.alwaysSummary === true) && edge.through === undefined;
}

function pagingOf(
  context: ReadContext,
  parentType: NodeTypeDef,
  edge: EdgeDef,
  parent: StoredObject,
  page: Page,
  options: EdgeOptions,
  /** What every link carries besides its cursor. */
  params: Record<string, string>,
): Json {
  const first = page.rows[0]!;
  const last = page.rows[page.rows.length - 1]!;
  const before = context.cursors.encode(edge.name, first);
  const after = context.cursors.encode(edge.name, last);
  const backwards = options.before !== undefined;
  const positioned = backwards || options.after !== undefined;
  const path = `/${externalId(context, parentType, parent)}/${edge.name}`;
  if (edge.offsetPaging && rules.has(edge.offsetPaging, context.version)) {
    // What the service added to the link goes first; a parameter the request named keeps its value.
    const link = (query: Record<string, string>) => context.link(path, { ...edge.offsetLink, ...params, ...query });
    return offsetPaging({ link, before, after, page, options, positioned, backwards });
  }
  if (edge.timePaging && rules.has(edge.timePaging, context.version)) {
    // `previous` reads newer items than the page: an `until` the request carried would cut them off.
    const { until: _until, ...newer } = params;
    const link = (query: Record<string, string>) => context.link(path, { ...('since' in query ? newer : params), ...query });
    return timePaging({ link, first, last, before, after, page, backwards });
  }
  const paging: Json = { cursors: { before, after } };
  if (positioned && (!backwards || page.more)) paging.previous = context.link(path, { ...params, before });
  if (backwards || page.more) paging.next = context.link(path, { ...params, after });
  context.budget.spendBytes(before.length + after.length + String(paging.previous ?? '').length + String(paging.next ?? '').length);
  return paging;
}

/** An edge path's links repeat every parameter the client sent, with the cursor replaced. */
function topLevelParams(options: EdgeOptions, request: EdgeRequest): Record<string, string> {
  const params: Record<string, string> = { ...request.requestParams };
  for (const name of ['after', 'before', 'offset', '__after_id', '__before_id', '__paging_token', '__previous']) delete params[name];
  params.limit = String(options.limit);
  return params;
}

/** A nested edge's links point at the edge path, carrying the token and the edge's own modifiers. */
function nestedParams(context: ReadContext, options: EdgeOptions, children: Selection[] | undefined): Record<string, string> {
  const params: Record<string, string> = { ...context.linkParams };
  if (children && children.length > 0) params.fields = printFields(children);
  params.limit = String(options.limit);
  if (options.summary) params.summary = 'true';
  if (options.since !== undefined) params.since = String(options.since);
  if (options.until !== undefined) params.until = String(options.until);
  if (options.order !== undefined) params.order = options.order;
  if (options.filter !== undefined) params.filter = options.filter;
  if (options.type !== undefined) params.type = options.type;
  return params;
}
