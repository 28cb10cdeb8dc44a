/**
 * The `login_url` of a test user: a link that signs a browser in as that person, as the real
 * service's test-user checkpoint does. It carries a random single-use code, kept hashed with the
 * dialog's codes and marked apart from them, that expires within the hour; the user's id alone
 * never signs anyone in.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { AuthCode } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';
import { hashToken } from './tokens.js';

export const LOGIN_LINK_SECONDS = 60 * 60;
/** Stands where a dialog code keeps its redirect_uri: no registrable address looks like it. */
export const LOGIN_LINK_MARK = 'loom:test-user-login';

/** A fresh login code for each of the app's test users, all saved in one store call. */
export async function issueLoginCodes(store: Store, appId: ObjectId, userIds: readonly ObjectId[], now: number): Promise<Map<ObjectId, string>> {
  const codes = new Map(userIds.map((userId) => [userId, `LG${randomBytes(32).toString('base64url')}`]));
  const records: AuthCode[] = [...codes].map(([userId, code]) => ({
    hash: hashToken(code),
    appId,
    userId,
    redirectUri: LOGIN_LINK_MARK,
    scopes: [],
    expiresAt: now + LOGIN_LINK_SECONDS,
  }));
  await store.saveAuthCodes(records);
  return codes;
}

/** The app and user a login code stands for, using it up; undefined for anything else. */
export async function redeemLoginCode(store: Store, code: string, now: number): Promise<{ appId: ObjectId; userId: ObjectId } | undefined> {
  if (!/^LG[\w-]{43}$/.test(code)) return undefined;
  const stored = await store.takeAuthCode(hashToken(code));
  if (!stored || stored.redirectUri !== LOGIN_LINK_MARK || stored.expiresAt <= now) return undefined;
  return { appId: stored.appId, userId: stored.userId };
}
