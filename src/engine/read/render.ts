import { parseFields } from '../../query/parser.js';
import type { Selection } from '../../query/selection.js';
import type { AccessRule, EdgeDef, FieldDef, NodeTypeDef } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { Json } from '../../ids.js';
import { isReader, loadAccess, type AccessCheck } from '../access/access.js';
import type { ReadContext } from '../request/context.js';
import { loadEdge } from './edges.js';
import { graphTime } from '../../clock/graph-time.js';
import { externalId } from './node-ids.js';
import { keyOf, LISTED, planSelection, type DefaultShape, type PlanEntry } from './plan.js';
import { visibleIds, visibleObjects } from '../access/visibility.js';
import { passingRule } from '../access/access-rules.js';
import { mapPaced } from '../request/cost-budget.js';
import { rules } from '../../schema/versions.js';
import { pageTokenField } from './page-tokens.js';

/** Fields and edges of one level loaded at once: enough to overlap a remote store's round trips. */
const COLUMNS_AT_ONCE = 4;
type Column = Map<number, unknown>;

/**
 * Renders every object of one type at one level with one selection. Each field or edge that
 * needs the store is loaded for the whole batch at once, so store calls grow with the depth of
 * the selection, never with the number of objects.
 */
export async function renderNodes(
  context: ReadContext,
  type: NodeTypeDef,
  objects: readonly StoredObject[],
  selections: readonly Selection[] | undefined,
  /** What the objects show when `selections` names nothing: by their path they may get more defaults. */
  shape: DefaultShape = LISTED,
  /** The plan of `selections` for this type and shape, when the caller made it already. */
  planned?: PlanEntry[],
): Promise<Map<number, Json>> {
  const plan = planned ?? planSelection(context.schema, context.version, type, selections, shape);
  await context.budget.pace();
  const access = await loadAccess(
    context,
    type,
    objects,
    plan.map((entry) => (entry.kind === 'field' ? entry.field : entry.edge)),
  );
  const columns = await mapPaced(plan, COLUMNS_AT_ONCE, (entry) => renderColumn(context, type, objects, entry, access));
  const rendered = new Map<number, Json>();
  for (const object of objects) {
    const node: Json = {};
    plan.forEach((entry, index) => {
      const value = columns[index]!.get(object.id);
      if (value !== undefined && value !== null) node[entry.key] = value;
    });
    context.budget.spendBytes(scalarBytes(node));
    rendered.set(object.id, node);
  }
  return rendered;
}

async function renderColumn(
  context: ReadContext,
  type: NodeTypeDef,
  objects: readonly StoredObject[],
  entry: PlanEntry,
  access: AccessCheck,
): Promise<Column> {
  // Each field and edge of a level is a checkpoint: a wide selection (2,000 aliased edges) pauses between them.
  await context.budget.pace();
  const readers = await readersOf(context, entry.kind === 'edge' ? entry.edge.read : entry.field.read, objects);
  if (entry.kind === 'edge') {
    const allowed = objects.filter((object) => access.readable(object, entry.edge) && isReader(context.viewer, entry.edge, object) && readers(object));
    if (objects.some((object) => access.lacksScope(object, entry.edge))) noteMissingScope(context, type, 'edge', entry.edge.name, entry.edge.scope);
    return loadNestedEdge(context, type, entry.edge, allowed, entry.selection, entry.nested);
  }
  const shown = entry.shownTo ? await readersOf(context, entry.shownTo, objects) : () => true;
  const permitted = objects.filter((object) => access.readable(object, entry.field) && readers(object) && shown(object));
  if (objects.some((object) => access.lacksScope(object, entry.field))) noteMissingScope(context, type, 'field', entry.field.name, entry.field.scope);
  return renderField(context, type, entry.field, permitted, entry.selection, entry.nested);
}

/** Whether the viewer passes a field's or edge's own read rule, for the whole batch at once. */
export async function readersOf(
  context: ReadContext,
  rule: AccessRule | undefined,
  objects: readonly StoredObject[],
): Promise<(object: StoredObject) => boolean> {
  if (!rule) return () => true;
  const passing = await passingRule(context, rule, objects, (ids, depth) => visibleIds(context, ids, depth));
  return (object) => passing.has(object.id);
}

function noteMissingScope(context: ReadContext, type: NodeTypeDef, kind: 'field' | 'edge', name: string, scope: string | undefined): void {
  context.notes.add(`The ${kind} '${name}' is only accessible on the ${type.label} object after the user grants the '${scope}' permission.`);
}

/** The edge's collection of each allowed object; the others have none (`get` gives undefined). */
function loadNestedEdge(
  context: ReadContext,
  type: NodeTypeDef,
  edge: EdgeDef,
  allowed: readonly StoredObject[],
  selection: Selection,
  itemShape: DefaultShape,
): Promise<Column> {
  return loadEdge(context, type, edge, allowed, {
    raw: selection.modifiers,
    children: selection.children,
    nested: true,
    itemShape,
  });
}

async function renderField(
  context: ReadContext,
  type: NodeTypeDef,
  field: FieldDef,
  objects: readonly StoredObject[],
  selection: Selection,
  /** What a node the field names shows when the selection names nothing inside it. */
  shape: DefaultShape,
): Promise<Column> {
  const source = field.source ?? { kind: 'data' };
  const column: Column = new Map();
  switch (source.kind) {
    case 'data':
      for (const object of objects) column.set(object.id, pick(object.data[source.key ?? field.name] ?? source.default, selection.children));
      return column;
    case 'id':
      for (const object of objects) column.set(object.id, externalId(context, type, object));
      return column;
    case 'createdTime':
      for (const object of objects) column.set(object.id, graphTime(object.createdTime));
      return column;
    case 'updatedTime':
      for (const object of objects) column.set(object.id, graphTime(object.updatedTime));
      return column;
    case 'computed':
      for (const object of objects) column.set(object.id, source.compute(object, context.fieldContext));
      return column;
    case 'count': {
      const counts = await context.store.getCounts(source.assoc, objects.map((object) => object.id));
      for (const object of objects) {
        const count = counts.get(object.id) ?? 0;
        column.set(object.id, source.wrap === undefined ? count : count > 0 ? { [source.wrap]: count } : undefined);
      }
      return column;
    }
    case 'pageToken': {
      const tokens = await pageTokenField(context, objects.map((object) => object.id));
      for (const object of objects) column.set(object.id, tokens.get(object.id));
      return column;
    }
    case 'viewerLinked': {
      const viewerId = context.viewer.userId;
      const linked =
        viewerId === null || objects.length === 0
          ? new Set<string>()
          : await context.store.getExisting(source.assoc, objects.map((object) => [object.id, viewerId] as const));
      for (const object of objects) column.set(object.id, viewerId !== null && linked.has(`${object.id}:${viewerId}`));
      return column;
    }
    case 'counter': {
      const ids = objects.map((object) => object.id);
      const [sums, counts] = await Promise.all([context.store.getCounts(source.sum, ids), source.per ? context.store.getCounts(source.per, ids) : undefined]);
      for (const object of objects) {
        const sum = sums.get(object.id) ?? 0;
        if (!counts) column.set(object.id, sum);
        else {
          const count = counts.get(object.id) ?? 0;
          // An average of nothing is no value: the field is left out until there is something to average.
          if (count > 0) column.set(object.id, Math.round((sum / count) * 100) / 100);
        }
      }
      return column;
    }
    case 'owner':
      return renderReferences(context, objects, (object) => object.owner, false, { children: selection.children, shape });
    case 'ref': {
      const idsOf = (object: StoredObject) => object.data[source.key ?? field.name];
      if (source.idWhile && rules.has(source.idWhile, context.version)) return renderReferencedIds(context, objects, idsOf);
      const children = selection.children && selection.children.length > 0 ? selection.children : source.fields ? defaultSelection(source.fields) : undefined;
      return renderReferences(context, objects, idsOf, source.many ?? false, { children, shape });
    }
  }
}

const defaultSelections = new Map<string, Selection[]>();

/** The parsed default selection of a reference, parsed once per text. */
function defaultSelection(fields: string): Selection[] {
  let parsed = defaultSelections.get(fields);
  if (!parsed) defaultSelections.set(fields, (parsed = parseFields(fields)));
  return parsed;
}

/** What nested nodes show: the fields asked for, or when none, those of their shape. */
interface Shown {
  children: Selection[] | undefined;
  shape: DefaultShape;
}

/** Nested nodes named by ids inside objects (`from`, `to`, `album`): one load for the batch. */
async function renderReferences(
  context: ReadContext,
  objects: readonly StoredObject[],
  idsOf: (object: StoredObject) => unknown,
  many: boolean,
  shown: Shown,
): Promise<Column> {
  const idLists = referencedIds(objects, idsOf);
  const nodes = await renderObjectsById(context, [...new Set([...idLists.values()].flat())], shown.children, shown.shape);
  const column: Column = new Map();
  for (const [objectId, ids] of idLists) {
    const rendered = ids.map((id) => nodes.get(id)).filter((node): node is Json => node !== undefined);
    column.set(objectId, many ? (rendered.length > 0 ? { data: rendered } : undefined) : rendered[0]);
  }
  return column;
}

const ID_ONLY: Selection[] = [{ name: 'id', modifiers: {}, position: 0 }];

/** A reference shown as the id of the node it names (as the viewer sees it), or left out when the viewer may not see that node. */
async function renderReferencedIds(context: ReadContext, objects: readonly StoredObject[], idsOf: (object: StoredObject) => unknown): Promise<Column> {
  const idLists = referencedIds(objects, idsOf);
  const nodes = await renderObjectsById(context, [...new Set([...idLists.values()].flat())], ID_ONLY);
  const column: Column = new Map();
  for (const [objectId, ids] of idLists) column.set(objectId, ids.map((id) => nodes.get(id)?.id).find((id) => id !== undefined));
  return column;
}

/** The internal ids each object names under a reference: one, or with `many` a list. */
function referencedIds(objects: readonly StoredObject[], idsOf: (object: StoredObject) => unknown): Map<number, number[]> {
  const idLists = new Map<number, number[]>();
  for (const object of objects) {
    const value = idsOf(object);
    idLists.set(object.id, (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number'));
  }
  return idLists;
}

/**
 * Loads, filters by visibility and renders objects of any types, grouped by type: what the viewer
 * may not see is left out (a post `to` someone that is not theirs to read).
 */
export async function renderObjectsById(
  context: ReadContext,
  ids: readonly number[],
  children: Selection[] | undefined,
  /** What the objects show when `children` names nothing; as listed nodes when absent. */
  shape?: DefaultShape,
): Promise<Map<number, Json>> {
  if (ids.length === 0) return new Map();
  await context.budget.pace();
  const loaded = await context.objects.get(ids);
  const present = ids.map((id) => loaded.get(id)).filter((o): o is StoredObject => o !== undefined);
  return renderVisibleObjects(context, await visibleObjects(context, present), children, shape);
}

/** Renders objects of any types the viewer may see (visibleObjects said so), grouped by type. */
export async function renderVisibleObjects(
  context: ReadContext,
  visible: Iterable<StoredObject>,
  children: Selection[] | undefined,
  shape?: DefaultShape,
): Promise<Map<number, Json>> {
  const byType = new Map<string, StoredObject[]>();
  for (const object of visible) {
    const list = byType.get(object.type) ?? [];
    list.push(object);
    byType.set(object.type, list);
  }
  const rendered = new Map<number, Json>();
  await Promise.all(
    [...byType].map(async ([typeName, group]) => {
      const type = context.schema.type(typeName);
      if (!type) return;
      for (const [id, node] of await renderNodes(context, type, group, children, shape)) rendered.set(id, node);
    }),
  );
  return rendered;
}

/**
 * Roughly the bytes a node's own values take in the answer: its keys and strings, a few bytes
 * for anything else. Nested nodes and collections are counted where they are rendered.
 */
function scalarBytes(node: Json): number {
  let bytes = 0;
  for (const key in node) {
    const value = node[key];
    bytes += key.length + (typeof value === 'string' ? value.length : 8);
  }
  return bytes;
}

/** Structured values (`location`, `education`) honour a sub-selection by keeping only those keys. */
function pick(value: unknown, children: Selection[] | undefined): unknown {
  if (!children || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => pick(item, children));
  const picked: Json = {};
  for (const child of children) {
    // Own keys only: `location{__proto__}` names no part of a location.
    if (!Object.hasOwn(value, child.name)) continue;
    const inner = (value as Json)[child.name];
    if (inner !== undefined) picked[keyOf(child)] = pick(inner, child.children);
  }
  return picked;
}
