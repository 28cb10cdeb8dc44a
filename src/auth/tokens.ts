import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { IdOrRef } from '../store/write-ops.js';
import type { TokenRecord } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';

/** User tokens from the sign-in dialog live two hours unless the server is told otherwise. */
export const SHORT_LIVED_SECONDS = 2 * 60 * 60;
/** What `fb_exchange_token` gives: sixty days, as the real service does. */
export const LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;

/** Tokens look like the real service's (`EAA…`) and are stored only as their SHA-256. */
function newAccessToken(): string {
  return `EAAL${randomBytes(48).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedToken {
  accessToken: string;
  record: TokenRecord;
}

interface UserGrant<User extends IdOrRef> {
  appId: ObjectId;
  userId: User;
  scopes: readonly string[];
  /** Seconds; 0 for a token that never expires. */
  expiresIn: number;
  now: number;
}

/**
 * A new user token and the record that stores it, not yet saved: for saving many at once, or in
 * the write that creates the user (whose id is then a reference into that write).
 */
export function newUserToken<User extends IdOrRef>(
  grant: UserGrant<User>,
): { accessToken: string; record: Omit<TokenRecord, 'userId'> & { userId: User } } {
  const accessToken = newAccessToken();
  const record = {
    hash: hashToken(accessToken),
    kind: 'user' as const,
    appId: grant.appId,
    userId: grant.userId,
    scopes: [...grant.scopes],
    issuedAt: grant.now,
    expiresAt: grant.expiresIn > 0 ? grant.now + grant.expiresIn : 0,
  };
  return { accessToken, record };
}

export async function issueUserToken(store: Store, grant: UserGrant<ObjectId>): Promise<IssuedToken> {
  const issued = newUserToken(grant);
  await store.saveTokens([issued.record]);
  return issued;
}

/**
 * A new page token, not yet saved: the administrator's grant acting as the page. It is stored as
 * the administrator's token naming the page, so removing the app revokes it with their others.
 */
export function newPageToken(grant: UserGrant<ObjectId> & { pageId: ObjectId }): IssuedToken {
  const { accessToken, record } = newUserToken(grant);
  return { accessToken, record: { ...record, pageId: grant.pageId } };
}
