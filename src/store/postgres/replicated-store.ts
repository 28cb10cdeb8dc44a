import type { Store } from '../store.js';
import type { ReplicaSet } from './replica-set.js';

/**
 * The writes that change what the graph's reads answer (objects, associations, counts, grants,
 * the search index and declared keys): each is answered once every replica in use replayed it.
 * Tokens, credentials, codes, settings and schema versions are read on the primary alone (their
 * caches refill there after a change notice), and call counts and webhook rows too, so their
 * writes wait for nobody. A write method added to the store that changes the graph belongs here.
 */
const REPLAYED_WRITES = [
  'write',
  'declareSearchable',
  'createApp',
  'updateApp',
  'deleteApp',
  'setGrants',
  'updateGrants',
  'restoreSnapshot',
  'loadRecords',
  'bulkLoad',
] as const satisfies ReadonlyArray<keyof Store>;

/**
 * The store with read replicas: its graph's reads for requests that only read go to them
 * (Store.replicaReads), and each write that changes the graph is answered only once they hold
 * it, so a person reads their own writes through any process.
 */
export function withReplicas<S extends Store>(store: S, replicas: ReplicaSet): S {
  const replicated: S = { ...store, replicaReads: replicas.reads };
  type Write = (...args: unknown[]) => Promise<unknown>;
  for (const name of REPLAYED_WRITES) {
    const write = store[name] as unknown as Write;
    const awaited: Write = async (...args) => {
      const result = await write(...args);
      await replicas.replayed();
      return result;
    };
    Object.assign(replicated, { [name]: awaited });
  }
  return replicated;
}
