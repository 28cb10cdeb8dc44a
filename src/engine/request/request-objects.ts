import type { Store } from '../../store/store.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ObjectId } from '../../ids.js';

/**
 * The objects one request has loaded, by id. The same person may appear many times in one
 * answer (listed under 2,000 aliases of one edge, or liking every post of a page); each is read
 * and decoded once, which keeps a wide query's work and memory to what it shows, not to how
 * often it shows it. Lives as long as the request, so it never serves stale data to another.
 */
export class RequestObjects {
  private readonly loads = new Map<ObjectId, Promise<StoredObject | undefined>>();

  constructor(private readonly store: Store) {}

  /** The objects of these ids that exist; one store call for those not loaded yet, none when all are. */
  async get(ids: readonly ObjectId[]): Promise<Map<ObjectId, StoredObject>> {
    const missing = [...new Set(ids.filter((id) => !this.loads.has(id)))];
    if (missing.length > 0) {
      const batch = this.store.getObjects(missing);
      for (const id of missing) this.loads.set(id, batch.then((loaded) => loaded.get(id)));
      // A failed load is not remembered: the request fails, and nothing else reads this cache.
      batch.catch(() => undefined);
    }
    const found = new Map<ObjectId, StoredObject>();
    for (const id of ids) {
      const object = await this.loads.get(id)!;
      if (object) found.set(id, object);
    }
    return found;
  }
}
