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
  /** By app, then by person: numbers as keys, so a lookup builds no string. */
  private readonly entries = new Map<number, Map<number, ReadonlySet<string>>>();
  private size = 0;
  private version: number | undefined;

  /** What is known under `version` of these people's grants to the app; those not known are left out. */
  known(version: number, appId: number, people: readonly number[]): Map<number, ReadonlySet<string>> {
    this.holdVersion(version);
    const found = new Map<number, ReadonlySet<string>>();
    const ofApp = this.entries.get(appId);
    if (ofApp === undefined) return found;
    for (const person of people) {
      const scopes = ofApp.get(person);
      if (scopes !== undefined) found.set(person, scopes);
    }
    return found;
  }

  /** Whether this person's grants to the app are known under `version`. */
  has(version: number, appId: number, person: number): boolean {
    return version === this.version && this.entries.get(appId)?.has(person) === true;
  }

  /**
   * Grants read by a request under `version`. A request under another version than the one held
   * starts the cache over: whatever it holds is only ever handed to requests under its version.
   */
  remember(version: number, appId: number, granted: ReadonlyMap<number, ReadonlySet<string>>): void {
    this.holdVersion(version);
    let ofApp = this.entries.get(appId);
    if (ofApp === undefined) {
      ofApp = new Map();
      this.entries.set(appId, ofApp);
    }
    for (const [person, scopes] of granted) {
      if (!ofApp.has(person)) {
        // Full: the oldest people of the oldest app go first.
        if (this.size >= MAX_ENTRIES) {
          this.forgetOldest();
          // Forgetting may have emptied this very app's map, and dropped it.
          this.entries.set(appId, ofApp);
        }
        this.size += 1;
      }
      ofApp.set(person, scopes);
    }
  }

  private forgetOldest(): void {
    const [appId, ofApp] = this.entries.entries().next().value!;
    ofApp.delete(ofApp.keys().next().value!);
    if (ofApp.size === 0) this.entries.delete(appId);
    this.size -= 1;
  }

  private holdVersion(version: number): void {
    if (version === this.version) return;
    this.entries.clear();
    this.size = 0;
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
