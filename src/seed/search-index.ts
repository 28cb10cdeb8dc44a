import { graphSchema } from '../graph/graph-schema.js';
import type { OnSearchReindex } from '../store/search.js';
import type { Store } from '../store/store.js';

/**
 * Builds the search index of a seeded graph for the built-in Graph schema it seeds, in one pass
 * over its objects. The seed writes before any server declared what is searchable, so without
 * this the first server on the database would index every object before it listens.
 */
export async function indexSeededGraph(store: Store, onReindex?: OnSearchReindex): Promise<void> {
  await store.declareSearchable(graphSchema().searchable(), onReindex);
}
