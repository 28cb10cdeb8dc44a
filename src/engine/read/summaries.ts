import type { EdgeDef } from '../../schema/definition.js';
import { passingRule } from '../access/access-rules.js';
import { visibleIds } from '../access/visibility.js';
import { rules } from '../../schema/versions.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import type { Listing } from './listing.js';
import type { Json } from '../../ids.js';

/** The `summary` of an edge for each parent: counts from the counts table, `has_liked` in one lookup. */
export async function loadSummaries(
  context: ReadContext,
  edge: EdgeDef,
  listing: Listing,
  parents: readonly StoredObject[],
): Promise<Map<number, Json>> {
  const ids = parents.map((parent) => parent.id);
  const viewerId = context.viewer.userId;
  // Before v2.4 a likes summary was a count like any other.
  const summary = edge.summary ?? 'count';
  const kind = summary === 'likes' && !rules.has('likes-summary-can-like', context.version) ? 'count' : summary;
  const asksViewer = kind === 'likes' || (typeof kind === 'object' && kind.viewer !== undefined);
  const [counts, liked, writable] = await Promise.all([
    listing.assoc ? context.pages.counts(listing.assoc, ids) : new Map<number, number>(),
    asksViewer && listing.assoc && viewerId !== null
      ? context.store.getExisting(listing.assoc, ids.map((id) => [id, viewerId] as const))
      : new Set<string>(),
    typeof kind === 'object' && kind.canWrite !== undefined ? writableParents(context, edge, parents) : new Set<number>(),
  ]);
  const summaries = new Map<number, Json>();
  for (const id of ids) {
    const total_count = counts.get(id) ?? 0;
    if (typeof kind === 'object') {
      const summary: Json = {};
      if (kind.order) summary.order = listing.orderName ?? 'chronological';
      summary.total_count = total_count;
      if (kind.canWrite !== undefined) summary[kind.canWrite] = writable.has(id);
      if (kind.viewer !== undefined) summary[kind.viewer] = liked.has(`${id}:${viewerId}`);
      summaries.set(id, summary);
      continue;
    }
    switch (kind) {
      case 'count':
        summaries.set(id, { total_count });
        break;
      case 'likes':
        summaries.set(id, { total_count, can_like: viewerId !== null, has_liked: liked.has(`${id}:${viewerId}`) });
        break;
      case 'comments':
        summaries.set(id, {
          order: listing.orderName ?? 'chronological',
          total_count,
          ...(rules.has('comments-summary-can-comment', context.version) ? { can_comment: viewerId !== null } : {}),
        });
        break;
    }
  }
  return summaries;
}

/** The parents the viewer may POST to this edge under: a person holding its permission who passes its rule. */
async function writableParents(context: ReadContext, edge: EdgeDef, parents: readonly StoredObject[]): Promise<Set<number>> {
  const post = edge.post;
  const { viewer } = context;
  if (!post || viewer.userId === null || (post.scope !== undefined && post.scope !== context.schema.permissions.alwaysGranted && !viewer.scopes.has(post.scope))) return new Set();
  if (!post.allow) return new Set(parents.map((parent) => parent.id));
  return passingRule(context, post.allow, parents, (ids, depth) => visibleIds(context, ids, depth));
}
