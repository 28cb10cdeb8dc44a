import { randomBytes, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { AppRecord, Store } from '../store/store.js';

export interface NewAppRequest {
  name: string;
  requireProof?: boolean;
  /** The business the app belongs to: its apps share `token_for_business` and `ids_for_business`. */
  businessId?: number | null;
  /** Where the sign-in dialog may send people back, each as registrableRedirectUri gives it. */
  redirectUris?: readonly string[];
  /** Unix seconds. */
  now: number;
  /**
   * The key of its app-scoped user ids (32 hex digits), when they must be reproducible (a seeded
   * demo app); random otherwise. The secret is always random: nothing that signs may be guessable.
   */
  idKey?: string;
}

/** Registers an app with a random secret and a key (random unless given) for its app-scoped user ids. */
export async function registerApp(store: Store, request: NewAppRequest): Promise<AppRecord> {
  return store.createApp({
    name: request.name,
    secret: newAppSecret(),
    idKey: request.idKey ?? randomBytes(16).toString('hex'),
    requireProof: request.requireProof ?? false,
    businessId: request.businessId ?? null,
    redirectUris: request.redirectUris ?? [],
    createdTime: request.now,
  });
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
  if (!app) throw new GraphError(101, 'Error validating application. Invalid application ID.');
  if (!clientSecret) throw new GraphError(1, 'Missing client_secret parameter.');
  if (!sameSecret(app.secret, clientSecret)) throw new GraphError(1, 'Error validating client secret.');
  return app;
}
