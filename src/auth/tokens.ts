import { createHash, randomBytes } from 'node:crypto';
import type { ObjectId, Store, TokenRecord } from '../store/store.js';

/** User tokens from the sign-in dialog live two hours unless the server is told otherwise. */
export const SHORT_LIVED_SECONDS = 2 * 60 * 60;
/** What `fb_exchange_token` gives: sixty days, as the real service does. */
export const LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;

/** Tokens look like the real service's (`EAA…`) and are stored only as their SHA-256. */
export function newAccessToken(): string {
  return `EAAL${randomBytes(48).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedToken {
  accessToken: string;
  record: TokenRecord;
}

export async function issueUserToken(
  store: Store,
  grant: { appId: ObjectId; userId: ObjectId; scopes: readonly string[]; expiresIn: number; now: number },
): Promise<IssuedToken> {
  const accessToken = newAccessToken();
  const record: TokenRecord = {
    hash: hashToken(accessToken),
    kind: 'user',
    appId: grant.appId,
    userId: grant.userId,
    scopes: [...grant.scopes],
    issuedAt: grant.now,
    expiresAt: grant.expiresIn > 0 ? grant.now + grant.expiresIn : 0,
  };
  await store.saveToken(record);
  return { accessToken, record };
}
