import type { Store } from '../store/store.js';

/** Tokens remembered per store; past this the oldest are forgotten first. */
const MAX_ENTRIES = 10_000;

interface Entry<V> {
  viewer: V;
  /** Unix seconds; 0 for a token that never expires. Checked on every use, against the request's clock. */
  expiresAt: number;
}

/**
 * What each valid token stands for (its viewer: app, user and scopes in effect), so a request
 * pays no query for it. Entries hold only while the store's auth version is the one they were
 * read under: any change to an app, token, grant or credential, in any process, drops them all
 * before the next request is answered. Expiry is checked on every use, so a token is refused
 * the moment the clock passes it.
 */
export class ViewerCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private version: number | undefined;

  constructor(private readonly store: Store) {}

  /**
   * The viewer of a token, from the cache or else from `inspect`, which throws the Graph error
   * of a token that stands for nothing; only valid tokens are remembered. `knownVersion` is the
   * store's auth version read when the request arrived, before it wrote anything; without it the
   * version is read here.
   */
  async resolve(
    token: string,
    now: number,
    inspect: () => Promise<{ viewer: V; expiresAt: number }>,
    knownVersion?: number,
  ): Promise<V> {
    const version = knownVersion ?? (await this.store.versions()).auth;
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const entry = this.entries.get(token);
    if (entry !== undefined && (entry.expiresAt === 0 || entry.expiresAt > now)) return entry.viewer;
    const fresh = await inspect();
    // Read under `version`: if the version moved meanwhile, what was read may already be stale.
    if (this.version === version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, fresh);
    }
    return fresh.viewer;
  }
}
