import type { Selection } from '../query/selection.js';
import type { EdgeDef } from '../schema/definition.js';
import type { Association, StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';
import type { DefaultShape } from './plan.js';
import { graphTime } from './graph-time.js';
import { renderObjectsById, type Json } from './render.js';
import { testUserItems } from './test-users.js';
import { pageAccountItems } from './page-accounts.js';
import { placeTagItems, relativeItems, taggableFriendItems } from './person-items.js';
import { targetItems } from './target-items.js';

/** The item a row of an edge's page shows, or undefined when the viewer may not see it. */
export type ItemOf = (row: Association) => Json | undefined;

/** Renders the items of every row of one level at once, in the form the edge declares. */
export async function renderEdgeItems(
  context: ReadContext,
  edge: EdgeDef,
  rows: readonly Association[],
  /** The fields asked for, and what items of the declared type show when none are. */
  { children, shape }: { children: Selection[] | undefined; shape?: DefaultShape },
  /** The rows' objects when the page query brought them along. */
  objects?: ReadonlyMap<number, StoredObject>,
): Promise<ItemOf> {
  switch (edge.items) {
    case 'friendRequest':
      return friendRequestItems(context, rows);
    case 'testUser':
      return testUserItems(context, rows);
    case 'pageAccount':
      return pageAccountItems(context, rows, children);
    case 'relative':
      return relativeItems(context, rows, children, objects);
    case 'taggableFriend':
      return taggableFriendItems(context, rows, children, objects);
    case 'placeTag':
      return placeTagItems(context, rows, children, objects);
    case undefined:
      return targetItems(context, rows, children, objects, (node) => node, { shape });
  }
}

/**
 * A pending request is held from its recipient (id1) to its sender (id2). It reaches its
 * recipient whichever apps its sender uses, so senders who never used this app are shown.
 */
async function friendRequestItems(context: ReadContext, rows: readonly Association[]): Promise<ItemOf> {
  const people = await renderObjectsById(context, [...new Set(rows.flatMap((row) => [row.id1, row.id2]))], undefined, { hidePeople: false });
  return (row) => {
    const from = people.get(row.id2);
    const to = people.get(row.id1);
    return from && to ? { from, to, created_time: graphTime(row.time) } : undefined;
  };
}
