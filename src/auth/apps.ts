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
  /** The API version of the app's unversioned calls; the server's default when null or absent. */
  apiVersion?: string | null;
  /** Unix seconds. */
  now: number;
}

/** Registers an app with a random secret and a random key for its app-scoped user ids. */
export async function registerApp(store: Store, request: NewAppRequest): Promise<AppRecord> {
  return store.createApp({
    name: request.name,
    secret: randomBytes(32).toString('hex'),
    idKey: randomBytes(16).toString('hex'),
    requireProof: request.requireProof ?? false,
    businessId: request.businessId ?? null,
    redirectUris: request.redirectUris ?? [],
    apiVersion: request.apiVersion ?? null,
    createdTime: request.now,
  });
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
