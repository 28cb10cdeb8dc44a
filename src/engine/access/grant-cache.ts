import type { Store } from '../../store/store.js';

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
    this.holdVersion(version);
    const found = new Map<number, ReadonlySet<string>>();
    for (const person of people) {
      const scopes = this.entries.get(`${appId}:${person}`);
      if (scopes !== undefined) found.set(person, scopes);
    }
    return found;
  }

  /** Whether this person's grants to the app are known under `version`. */
  has(version: number, appId: number, person: number): boolean {
    return version === this.version && this.entries.has(`${appId}:${person}`);
  }

  /**
   * Grants read by a request under `version`. A request under another version than the one held
   * starts the cache over: whatever it holds is only ever handed to requests under its version.
   */
  remember(version: number, appId: number, granted: ReadonlyMap<number, ReadonlySet<string>>): void {
    this.holdVersion(version);
    for (const [person, scopes] of granted) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(`${appId}:${person}`, scopes);
    }
  }

  private holdVersion(version: number): void {
    if (version === this.version) return;
    this.entries.clear();
    this.version = version;
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
