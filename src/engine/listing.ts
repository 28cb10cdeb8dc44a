import type { EdgeDef } from '../schema/definition.js';
import type { EdgeOptions, EdgeOrder } from './edge-options.js';

/** Which association list an edge reads, and in which order, once its `order` and `filter` modifiers apply. */
export interface Listing {
  assoc: string | undefined;
  order: 'newest' | 'oldest';
  /** The order as the summary names it; only for edges that take `order`. */
  orderName?: EdgeOrder;
}

export function listingOf(edge: EdgeDef, options: EdgeOptions): Listing {
  const assoc = options.filter === 'stream' && edge.streamAssoc ? edge.streamAssoc : edge.assoc;
  if (!edge.ordered) return { assoc, order: 'newest' };
  const orderName = options.order ?? edge.defaultOrder ?? 'chronological';
  // Loom has no relevance ranking; a ranked conversation reads in the order it was written.
  return { assoc, order: orderName === 'reverse_chronological' ? 'newest' : 'oldest', orderName };
}
