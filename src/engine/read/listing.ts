import type { EdgeDef } from '../../schema/definition.js';
import { GraphError } from '../../errors.js';
import type { EdgeOptions, EdgeOrder } from './edge-options.js';

/** Which association list an edge reads, and in which order, once its `order` and `filter` modifiers apply. */
export interface Listing {
  assoc: string | undefined;
  order: 'newest' | 'oldest';
  /** The order as the summary names it; only for edges that take `order`. */
  orderName?: EdgeOrder;
  /** The list a `byType` edge reads, by its `type` name. */
  type?: string;
}

export function listingOf(edge: EdgeDef, options: EdgeOptions): Listing {
  if (edge.byType) {
    const type = options.type ?? edge.byType.default;
    return { assoc: typedAssoc(edge.byType, type), order: 'newest', type };
  }
  const assoc = options.filter === 'stream' && edge.streamAssoc ? edge.streamAssoc : edge.assoc;
  if (!edge.ordered) return { assoc, order: 'newest' };
  const orderName = options.order ?? edge.defaultOrder ?? 'chronological';
  // Loom has no relevance ranking; a ranked conversation reads in the order it was written.
  return { assoc, order: orderName === 'reverse_chronological' ? 'newest' : 'oldest', orderName };
}

/** The association list a `type` names; a type the edge does not know is the client's mistake. */
function typedAssoc(byType: NonNullable<EdgeDef['byType']>, type: string): string {
  const assoc = Object.hasOwn(byType.assocs, type) ? byType.assocs[type] : undefined;
  if (assoc === undefined) {
    throw GraphError.invalidParameter(`type must be one of the following values: ${Object.keys(byType.assocs).join(', ')}`);
  }
  return assoc;
}
