import type { Store } from '../store/store.js';

/** (app, person) pairs remembered per store; past this the oldest are forgotten first. */
const MAX_ENTRIES = 100_000;

/**
 * Whether each person uses an app, across requests: a page of 25 friends or likers otherwise
 * reads the grants of the same people again on every request. Whether someone uses an app is a
 * grant, and every change to grants, in any process, moves the store's auth version; entries
 * hold only while that version is the one they were read under, like the cache of tokens.
 */
export class AppUseCache {
  private readonly entries = new Map<string, boolean>();
  private version: number | undefined;

  /** What is known under `version` of these people's use of the app; those not known are left out. */
  known(version: number, appId: number, people: readonly number[]): Map<number, boolean> {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const found = new Map<number, boolean>();
    for (const person of people) {
      const uses = this.entries.get(`${appId}:${person}`);
      if (uses !== undefined) found.set(person, uses);
    }
    return found;
  }

  /** Answers read under `version`; dropped when the version moved while they were read, as they may be stale. */
  remember(version: number, appId: number, people: readonly number[], users: ReadonlySet<number>): void {
    if (version !== this.version) return;
    for (const person of people) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(`${appId}:${person}`, users.has(person));
    }
  }
}

const caches = new WeakMap<Store, AppUseCache>();

export function appUseCacheOf(store: Store): AppUseCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new AppUseCache();
    caches.set(store, cache);
  }
  return cache;
}
