import type { Selection } from '../../query/selection.js';
import type { EdgeDef } from '../../schema/definition.js';
import type { Association, StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import type { Json } from '../../ids.js';
import { targetItems } from './target-items.js';
import type { ShownRows } from './filled-pages.js';
import type { DefaultShape } from './plan.js';
import { visibleObjects } from '../access/visibility.js';

/** The item a row of an edge's page shows, or undefined when it shows none. */
export type ItemOf = (row: Association) => Json | undefined;

/** Whether each item shows the node its association points at (in its own shape or as it is), so the page brings the nodes along. */
export function itemsAreNodes(edge: EdgeDef): boolean {
  return edge.items === undefined || edge.items.showsNodes;
}

/**
 * Which rows of one level show an item: those whose node exists, is of a known type and is one
 * the viewer may see, checked for all the rows at once. Items made from the association itself
 * (a friend request, a test user) show for every row.
 */
export async function shownRows(
  context: ReadContext,
  edge: EdgeDef,
  rows: readonly Association[],
  /** The rows' objects when the page query brought them along. */
  objects: ReadonlyMap<number, StoredObject> | undefined,
): Promise<ShownRows> {
  if (!itemsAreNodes(edge)) return { shows: () => true, nodes: new Map() };
  const ids = [...new Set(rows.map((row) => row.id2))];
  const loaded = objects ?? (await context.objects.get(ids));
  const present = ids.map((id) => loaded.get(id)).filter((object): object is StoredObject => object !== undefined && context.schema.type(object.type) !== undefined);
  const nodes = new Map((await visibleObjects(context, present)).map((object) => [object.id, object] as const));
  return { shows: (row) => nodes.has(row.id2), nodes };
}

/** Renders the items of every row of one level at once, in the form the edge declares; the rows are those shownRows let show. */
export async function renderEdgeItems(
  context: ReadContext,
  edge: EdgeDef,
  rows: readonly Association[],
  /** The fields asked for, and what items of the declared type show when none are. */
  { children, shape }: { children: Selection[] | undefined; shape?: DefaultShape },
  /** The nodes the rows point at, which the viewer may see (ShownRows.nodes). */
  nodes: ReadonlyMap<number, StoredObject>,
): Promise<ItemOf> {
  // Items in a shape of their own are the schema's code's (schema/behaviours.ts).
  if (edge.items) return edge.items.render(context, rows, children, nodes);
  return targetItems(context, rows, children, nodes, (node) => node, shape);
}
