import type { GraphReads } from './graph-store.js';
import type { Store } from './store.js';

/**
 * The store as a request that only reads uses it: its graph's reads go to the store's read
 * replicas where it has them (Store.replicaReads); everything else (the auth records, the
 * settings, any write) stays with the store itself. Without replicas, the store itself.
 */
export function readingStore(store: Store): Store {
  const reads = store.replicaReads;
  if (reads === undefined) return store;
  return new Proxy(store, {
    get(target, property): unknown {
      if (Object.hasOwn(reads, property)) return reads[property as keyof GraphReads];
      return Reflect.get(target, property, target) as unknown;
    },
  });
}
