/**
 * Pages that visibility never leaves short while more lies beyond. A level's pages are read
 * `limit + 1` rows each; rows whose items the viewer may not see are passed over, and a page
 * left short is filled from the further rows of its list until it holds `limit` items and one
 * more, which tells that others follow, or its list ends. So a page is never empty while it
 * links to a next one, and paging reaches every item the viewer may see.
 *
 * Each round reads on from where the last one stopped, for every page of the level still short,
 * in one store call, and checks the new rows' visibility together; a round reads twice the rows
 * of the one before, so a long run of hidden rows costs few rounds. What a request may read in
 * all is bounded by its cost budget.
 */
import type { Association, StoredObject } from '../../store/graph-store.js';
import type { PageRequest, Position } from '../../store/page-request.js';
import type { ObjectId } from '../../ids.js';
import type { ReadContext } from '../request/context.js';
import type { PageRead } from '../request/request-pages.js';

/** Most rows one round reads of one list, however many rounds came before. */
const MOST_ROWS_A_ROUND = 1000;

/** Which rows of a level show an item to the viewer, and the nodes those items show. */
export interface ShownRows {
  shows(row: Association): boolean;
  /** The node each showing row points at, which the viewer may see; none for items made from the association itself. */
  nodes: ReadonlyMap<number, StoredObject>;
}

export interface Page {
  /** The rows whose items show, in the list's order, at most `limit`. */
  rows: Association[];
  /** More items the viewer may see lie beyond this page in its reading direction. */
  more: boolean;
}

export interface FilledPages {
  pages: Map<ObjectId, Page>;
  /** The node each shown row points at, which the viewer may see. */
  nodes: Map<ObjectId, StoredObject>;
}

/**
 * The pages of `first` (which reads `limit + 1` rows of each list), filled: `read` makes a page
 * read, `check` tells which of the rows read show an item.
 */
export async function readFilledPages(
  context: ReadContext,
  first: PageRequest,
  limit: number,
  read: (request: PageRequest) => Promise<PageRead>,
  check: (rows: Association[], objects: ReadonlyMap<ObjectId, StoredObject> | undefined) => Promise<ShownRows>,
): Promise<FilledPages> {
  const backwards = first.before !== undefined;
  /** Per list, the rows shown so far in reading order: at most `limit + 1`. */
  const shown = new Map<ObjectId, Association[]>(first.id1s.map((id1) => [id1, []]));
  const nodes = new Map<ObjectId, StoredObject>();
  let request = first;
  for (let round = 1; ; round += 1) {
    const { pages, objects } = await read(request);
    // A loop, not flat(): this V8 reads each element of flat()'s lists through a generic lookup.
    const rows: Association[] = [];
    for (const list of pages.values()) for (const row of list) rows.push(row);
    context.budget.spendItems(rows.length);
    const visible = await check(rows, objects);
    for (const [id, node] of visible.nodes) nodes.set(id, node);
    const resumeAt = new Map<ObjectId, Position>();
    for (const id1 of request.id1s) {
      const list = pages.get(id1) ?? [];
      // A backwards read comes in the list's order; its reading order is the reverse.
      const inReadingOrder = backwards ? [...list].reverse() : list;
      const page = shown.get(id1)!;
      for (const row of inReadingOrder) if (page.length <= limit && visible.shows(row)) page.push(row);
      const last = inReadingOrder[inReadingOrder.length - 1];
      // The list goes on past the rows read, and the page still lacks items or the one that tells of more.
      if (last !== undefined && list.length >= request.limit && page.length <= limit) resumeAt.set(id1, { time: last.time, id2: last.id2 });
    }
    if (resumeAt.size === 0) break;
    request = { ...first, id1s: [...resumeAt.keys()], resumeAt, limit: Math.min(MOST_ROWS_A_ROUND, first.limit * 2 ** round) };
  }
  const filled = new Map<ObjectId, Page>();
  for (const [id1, page] of shown) {
    const rows = page.slice(0, limit);
    filled.set(id1, { rows: backwards ? rows.reverse() : rows, more: page.length > limit });
  }
  return { pages: filled, nodes };
}
