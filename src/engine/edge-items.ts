import type { Selection } from '../query/selection.js';
import type { EdgeDef } from '../schema/definition.js';
import type { Association, StoredObject } from '../store/graph-store.js';
import type { ReadContext } from './context.js';
import { graphTime } from '../clock/graph-time.js';
import { renderObjectsById } from './render.js';
import type { Json } from '../ids.js';
import { testUserItems } from './test-users.js';
import { pageAccountItems } from './page-accounts.js';
import { placeTagItems, relativeItems, taggableFriendItems } from './person-items.js';
import { targetItems } from './target-items.js';
import type { DefaultShape } from './plan.js';
import { visibleObjects } from './visibility.js';

/** The item a row of an edge's page shows, or undefined when it shows none. */
export type ItemOf = (row: Association) => Json | undefined;

/** Which rows of a level show an item to the viewer, and the nodes those items show. */
export interface ShownRows {
  shows(row: Association): boolean;
  /** The node each showing row points at, which the viewer may see; none for items made from the association itself. */
  nodes: ReadonlyMap<number, StoredObject>;
}

/** Whether each item shows the node its association points at (in its own shape or as it is), so the page brings the nodes along. */
export function itemsAreNodes(edge: EdgeDef): boolean {
  return edge.items !== 'friendRequest' && edge.items !== 'testUser';
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
  switch (edge.items) {
    case 'friendRequest':
      return friendRequestItems(context, rows);
    case 'testUser':
      return testUserItems(context, rows);
    case 'pageAccount':
      return pageAccountItems(context, rows, children);
    case 'relative':
      return relativeItems(context, rows, children, nodes);
    case 'taggableFriend':
      return taggableFriendItems(context, rows, children, nodes);
    case 'placeTag':
      return placeTagItems(context, rows, children, nodes);
    case undefined:
      return targetItems(context, rows, children, nodes, (node) => node, shape);
  }
}

/**
 * A pending request is held from its recipient (id1) to its sender (id2). It reaches its
 * recipient whichever apps its sender uses.
 */
async function friendRequestItems(context: ReadContext, rows: readonly Association[]): Promise<ItemOf> {
  const people = await renderObjectsById(context, [...new Set(rows.flatMap((row) => [row.id1, row.id2]))], undefined);
  return (row) => {
    const from = people.get(row.id2);
    const to = people.get(row.id1);
    return from && to ? { from, to, created_time: graphTime(row.time) } : undefined;
  };
}
