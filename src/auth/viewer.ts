import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AppRecord, TokenRecord } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';
import { AppScopedIds } from './app-scoped-ids.js';
import { sameSecret } from './apps.js';
import { checkAppSecretProof } from './appsecret-proof.js';
import { grantedScopes } from './grants.js';
import { hashToken } from './tokens.js';
import { ViewerCache } from './viewer-cache.js';
import { PAGE_ADMINS } from '../schema/authors.js';

/** One cache of viewers per store, shared by every request on it. */
const caches = new WeakMap<Store, ViewerCache<Viewer>>();

function viewerCacheOf(store: Store): ViewerCache<Viewer> {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new ViewerCache<Viewer>(store);
    caches.set(store, cache);
  }
  return cache;
}

/**
 * Who is asking: the app the token belongs to and, for user tokens, the person; for page tokens,
 * the page, which then acts (reads, posts, comments, likes) as itself.
 */
export interface Viewer {
  kind: 'user' | 'app' | 'page';
  app: AppRecord;
  /** The one acting: the person, or the page of a page token; null for app tokens. */
  userId: ObjectId | null;
  /** For a page token: the person who administers the page, whose grants the token rests on. */
  adminId?: ObjectId;
  /** Scopes in effect: those the token carries that the person still grants (empty for app tokens). */
  scopes: ReadonlySet<string>;
  ids: AppScopedIds;
}

/** What a token stands for, or why it stands for nothing; what is known of a failed one comes along. */
export type TokenInspection =
  | { valid: true; viewer: Viewer; record: TokenRecord | undefined }
  | { valid: false; error: GraphError; app?: AppRecord; userId?: ObjectId; known?: KnownToken };

/** What is kept of a token that no longer works: its expiry and scopes, and when it was issued if that is kept too. */
interface KnownToken {
  expiresAt: number;
  scopes: readonly string[];
  issuedAt?: number;
}

const idsByKey = new Map<string, AppScopedIds>();

export function scopedIdsFor(app: AppRecord): AppScopedIds {
  const key = `${app.idKey}/${app.idTag}`;
  let ids = idsByKey.get(key);
  if (!ids) {
    ids = new AppScopedIds(app.idKey, app.idTag);
    idsByKey.set(key, ids);
  }
  return ids;
}

/**
 * Turns an access token into a Viewer (remembered until an auth change or its expiry), or fails
 * with the Graph error a client expects. A token
 * sent with an `appsecret_proof` must match it, and an app that requires proofs gets no call
 * without one.
 */
export async function resolveViewer(
  store: Store,
  token: string,
  now: number,
  proof: string | undefined,
  authVersion?: number,
): Promise<Viewer> {
  const viewer = await viewerCacheOf(store).resolve(
    token,
    now,
    async () => {
      const inspection = await inspectToken(store, token, now);
      if (!inspection.valid) throw inspection.error;
      return { viewer: inspection.viewer, expiresAt: inspection.record?.expiresAt ?? 0 };
    },
    authVersion,
  );
  checkAppSecretProof(viewer.app, token, proof);
  return viewer;
}

/**
 * Looks a token up: `<app id>|<app secret>` app tokens, stored user tokens (whose scopes are cut
 * down to what the person grants now, read in the same round trip as the app), and tokens
 * revoked when the person removed the app.
 */
export async function inspectToken(store: Store, token: string, now: number): Promise<TokenInspection> {
  const appToken = /^(\d{1,15})\|(.+)$/.exec(token);
  if (appToken) {
    const appId = Number(appToken[1]);
    const app = (await store.getApps([appId])).get(appId);
    if (!app) return { valid: false, error: (await store.getDeletedApps([appId])).has(appId) ? GraphError.appDeleted() : GraphError.invalidToken() };
    if (!sameSecret(app.secret, appToken[2]!)) return { valid: false, error: GraphError.invalidToken() };
    return { valid: true, viewer: appViewer(app), record: undefined };
  }
  const hash = hashToken(token);
  const record = await store.findToken(hash);
  if (!record) return inspectRevoked(store, hash);
  const page = record.pageId ?? null;
  const [apps, grants, roles] = await Promise.all([
    store.getApps([record.appId]),
    record.userId === null ? undefined : store.getGrants(record.appId, [record.userId]),
    // A page token works while its person administers the page.
    page === null || record.userId === null ? undefined : store.getExisting(PAGE_ADMINS, [[record.userId, page]]),
  ]);
  const app = apps.get(record.appId);
  if (!app) return { valid: false, error: GraphError.invalidToken() };
  const ids = scopedIdsFor(app);
  const failed = (error: GraphError): TokenInspection => ({ valid: false, error, app, userId: record.userId ?? undefined, known: record });
  if (record.expiresAt !== 0 && record.expiresAt <= now) {
    return failed(GraphError.expiredToken(new Date(record.expiresAt * 1000), new Date(now * 1000)));
  }
  let scopes = new Set(record.scopes);
  if (record.userId !== null) {
    const granted = grantedScopes(grants?.get(record.userId));
    if (granted.size === 0) return failed(GraphError.appNotAuthorized(ids.scope(record.userId), app.id));
    scopes = new Set(record.scopes.filter((scope) => granted.has(scope)));
  }
  if (roles !== undefined && roles.size === 0) return failed(GraphError.invalidToken());
  const viewer: Viewer =
    page === null || record.userId === null
      ? { kind: record.kind, app, userId: record.userId, scopes, ids }
      : { kind: 'page', app, userId: page, adminId: record.userId, scopes, ids };
  return { valid: true, viewer, record };
}

async function inspectRevoked(store: Store, hash: string): Promise<TokenInspection> {
  const revoked = await store.findRevokedToken(hash);
  const app = revoked && (await store.getApps([revoked.appId])).get(revoked.appId);
  if (revoked && !app && (await store.getDeletedApps([revoked.appId])).has(revoked.appId)) return { valid: false, error: GraphError.appDeleted() };
  if (!revoked || !app) return { valid: false, error: GraphError.invalidToken() };
  const error = GraphError.appNotAuthorized(scopedIdsFor(app).scope(revoked.userId), app.id);
  return { valid: false, error, app, userId: revoked.userId, known: revoked };
}

/** The app itself acting: what its app token stands for, and a client that proved itself with its secret. */
export function appViewer(app: AppRecord): Viewer {
  return { kind: 'app', app, userId: null, scopes: new Set(), ids: scopedIdsFor(app) };
}
