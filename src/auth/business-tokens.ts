/**
 * `token_for_business`: an opaque name for a person that every app of one business sees alike,
 * and that differs between businesses. It is an HMAC under a secret of the installation, so it
 * reveals neither the internal id nor anything another business could match.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import { BUSINESS_TOKEN_KEY } from './server-keys.js';

/** The installation's key, created on first use; processes starting together agree on one through the store. */
export function businessTokenKey(store: Store): Promise<string> {
  return store.initSetting(BUSINESS_TOKEN_KEY, randomBytes(32).toString('hex'));
}

/** The business an app belongs to; an app without one is a business of its own. */
export function businessOf(app: AppRecord): string {
  return app.businessId === null ? `app:${app.id}` : `business:${app.businessId}`;
}

export function tokenForBusiness(key: string, business: string, internalId: number): string {
  return createHmac('sha256', key).update(`${business}|${internalId}`).digest('base64url').slice(0, 27);
}
