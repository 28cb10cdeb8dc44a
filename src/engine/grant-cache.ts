import type { Store } from '../store/store.js';

/** (app, person) pairs remembered per store; past this the oldest are forgotten first. */
const MAX_ENTRIES = 100_000;

/**
 * The permissions each person granted an app, across requests: a page of 25 friends or likers
 * otherwise reads the grants of the same people again on every request. Every change to grants,
 * in any process, moves the store's auth version; entries hold only while that version is the
 * one they were read under, like the cache of tokens.
 */
export class GrantCache {
  private readonly entries = new Map<string, ReadonlySet<string>>();
  private version: number | undefined;

  /** What is known under `version` of these people's grants to the app; those not known are left out. */
  known(version: number, appId: number, people: readonly number[]): Map<number, ReadonlySet<string>> {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const found = new Map<number, ReadonlySet<string>>();
    for (const person of people) {
      const scopes = this.entries.get(`${appId}:${person}`);
      if (scopes !== undefined) found.set(person, scopes);
    }
    return found;
  }

  /** Grants read under `version`; dropped when the version moved while they were read, as they may be stale. */
  remember(version: number, appId: number, granted: ReadonlyMap<number, ReadonlySet<string>>): void {
    if (version !== this.version) return;
    for (const [person, scopes] of granted) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(`${appId}:${person}`, scopes);
    }
  }
}

const caches = new WeakMap<Store, GrantCache>();

export function grantCacheOf(store: Store): GrantCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new GrantCache();
    caches.set(store, cache);
  }
  return cache;
}
