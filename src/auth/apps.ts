import { randomBytes, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import { SEQUENCE_ID_LIMIT, type AppRecord } from '../store/auth-store.js';
import { ID_TAGS, isScopedUserId, SCOPED_ID_RANGE } from './app-scoped-ids.js';

export interface NewAppRequest {
  /** A fixed id (checked by fixedAppIdProblem), as test suites that hard-code app credentials need; a new one when absent. */
  id?: number;
  /** A fixed secret (checked by appSecretProblem); a random one when absent. */
  secret?: string;
  name: string;
  requireProof?: boolean;
  /** The business the app belongs to: its apps share `token_for_business` and `ids_for_business`. */
  businessId?: number | null;
  /** Where the sign-in dialog may send people back, each as registrableRedirectUri gives it. */
  redirectUris?: readonly string[];
  /** The API version of the app's unversioned calls; the server's default when null or absent. */
  apiVersion?: string | null;
  /** Unix seconds. */
  now: number;
  /**
   * The key of its app-scoped user ids (32 hex digits), when they must be reproducible (a seeded
   * demo app); random otherwise. The secret is random unless fixed (`secret`, for test suites).
   */
  idKey?: string;
}

/**
 * Registers an app, under a fixed id and secret when given (a taken id is refused), with a key
 * (random unless given) for its app-scoped user ids.
 */
export async function registerApp(store: Store, request: NewAppRequest): Promise<AppRecord> {
  if (request.id !== undefined) {
    const problem = fixedAppIdProblem(request.id);
    if (problem) throw new RangeError(problem);
  }
  if (request.secret !== undefined) {
    const problem = appSecretProblem(request.secret);
    if (problem) throw new RangeError(problem);
  }
  const idKey = request.idKey ?? randomBytes(16).toString('hex');
  return store.createApp({
    id: request.id,
    name: request.name,
    secret: request.secret ?? newAppSecret(),
    idKey,
    // Drawn from the key, so a reproducible key gives reproducible ids. Slot 0 is left to the
    // apps made before slots; new apps spread over the others.
    idTag: 1 + (parseInt(idKey.slice(0, 4), 16) % (ID_TAGS - 1)),
    requireProof: request.requireProof ?? false,
    businessId: request.businessId ?? null,
    redirectUris: request.redirectUris ?? [],
    apiVersion: request.apiVersion ?? null,
    createdTime: request.now,
  });
}

/**
 * Why a fixed app id cannot be used, or undefined when it can: ids below SEQUENCE_ID_LIMIT are
 * the store's own, and app-scoped user ids live in a range of their own. Real app ids (15 or 16
 * digits) fit.
 */
export function fixedAppIdProblem(id: number): string | undefined {
  if (!Number.isSafeInteger(id) || id < SEQUENCE_ID_LIMIT) return `an app id must be a whole number from ${SEQUENCE_ID_LIMIT} to ${Number.MAX_SAFE_INTEGER}`;
  if (isScopedUserId(id)) return `an app id must not lie in ${SCOPED_ID_RANGE.first}..${SCOPED_ID_RANGE.last}, where user ids are`;
  return undefined;
}

/** Why a chosen secret cannot be used, or undefined when it can. */
export function appSecretProblem(secret: string): string | undefined {
  return /^[A-Za-z0-9_-]{16,128}$/.test(secret) ? undefined : 'an app secret must be 16 to 128 letters, digits, "_" or "-"';
}

export function newAppSecret(): string {
  return randomBytes(32).toString('hex');
}

/** The app token every client can build for itself: `<app id>|<app secret>`. */
export function appAccessToken(app: AppRecord): string {
  return `${app.id}|${app.secret}`;
}

export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The app a token request names by `client_id`, proven by its `client_secret`. */
export async function authenticateClient(
  store: Store,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Promise<AppRecord> {
  if (!clientId) throw new GraphError(101, 'Missing client_id parameter.');
  const id = /^\d{1,15}$/.test(clientId) ? Number(clientId) : undefined;
  const app = id === undefined ? undefined : (await store.getApps([id])).get(id);
  if (!app && id !== undefined && (await store.getDeletedApps([id])).has(id)) throw GraphError.appDeleted();
  if (!app) throw new GraphError(101, 'Error validating application. Invalid application ID.');
  if (!clientSecret) throw new GraphError(1, 'Missing client_secret parameter.');
  if (!sameSecret(app.secret, clientSecret)) throw new GraphError(1, 'Error validating client secret.');
  return app;
}
