import type { Store } from '../../store/store.js';

/** (app, person) pairs remembered per store; past this the oldest are forgotten first. */
const MAX_ENTRIES = 100_000;

/**
 * People whose grants to one app were checked under one auth version, after which the app's
 * grants are read whole: a server that has looked at this many people's use of the app with no
 * change to grants is being read, and from then on no read need bring anyone's grants along.
 */
const CHECKS_BEFORE_READING_ALL = 1_000;

/** The most grants an app may hold and still be read whole. */
export const MAX_GRANTS_READ_WHOLE = 50_000;

/** What is known of a person who granted the app nothing: everyone's, once the app's grants were read whole. */
const NOTHING: ReadonlySet<string> = new Set();

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
  /** Apps whose every grant is known under the version: a person not listed granted nothing. */
  private readonly whole = new Set<number>();
  /** People checked under the version per app, until its grants are read whole (or found too many). */
  private readonly checks = new Map<number, number>();

  /** What is known under `version` of these people's grants to the app; those not known are left out. */
  known(version: number, appId: number, people: readonly number[]): Map<number, ReadonlySet<string>> {
    this.holdVersion(version);
    const found = new Map<number, ReadonlySet<string>>();
    const ofApp = this.entries.get(appId);
    const whole = this.whole.has(appId);
    if (ofApp === undefined && !whole) return found;
    for (const person of people) {
      const scopes = ofApp?.get(person) ?? (whole ? NOTHING : undefined);
      if (scopes !== undefined) found.set(person, scopes);
    }
    return found;
  }

  /** Whether this person's grants to the app are known under `version`. */
  has(version: number, appId: number, person: number): boolean {
    return version === this.version && (this.whole.has(appId) || this.entries.get(appId)?.has(person) === true);
  }

  /** Whether every person's grants to the app are known under `version`. */
  hasWhole(version: number, appId: number): boolean {
    return version === this.version && this.whole.has(appId);
  }

  /**
   * Counts a check of these many people's grants to the app under `version`; true once, on the
   * check that reaches CHECKS_BEFORE_READING_ALL: the app's grants should then be read whole
   * (rememberWhole).
   */
  countChecks(version: number, appId: number, people: number): boolean {
    this.holdVersion(version);
    const count = this.checks.get(appId) ?? 0;
    if (count >= CHECKS_BEFORE_READING_ALL) return false;
    this.checks.set(appId, count + people);
    return count + people >= CHECKS_BEFORE_READING_ALL;
  }

  /**
   * Every grant to the app, read under `version` (people who granted nothing absent). Dropped
   * when a request under a later version has come meanwhile: those grants may have changed.
   */
  rememberWhole(version: number, appId: number, granted: ReadonlyMap<number, ReadonlySet<string>>): void {
    if (version !== this.version || granted.size > MAX_ENTRIES / 2) return;
    const held = this.entries.get(appId);
    if (held !== undefined) {
      this.entries.delete(appId);
      this.size -= held.size;
    }
    // Last in the order of apps, so the first forgotten are other apps' people.
    this.entries.set(appId, new Map(granted));
    this.size += granted.size;
    this.whole.add(appId);
    while (this.size > MAX_ENTRIES) this.forgetOldest();
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
    // Someone of the app is forgotten: the app's grants are no longer all known.
    this.whole.delete(appId);
  }

  private holdVersion(version: number): void {
    if (version === this.version) return;
    this.entries.clear();
    this.whole.clear();
    this.checks.clear();
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
