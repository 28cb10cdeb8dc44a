import { randomBytes } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AuthCode } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';
import { LOGIN_LINK_MARK } from './login-links.js';
import { hashToken } from './tokens.js';

/** How long a code from the sign-in dialog may wait to be exchanged. */
const AUTH_CODE_SECONDS = 10 * 60;

const VERIFICATION_FAILED =
  'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request';

export async function issueAuthCode(
  store: Store,
  grant: { appId: ObjectId; userId: ObjectId; redirectUri: string; scopes: readonly string[]; now: number },
): Promise<string> {
  const code = `AQ${randomBytes(48).toString('base64url')}`;
  await store.saveAuthCodes([{
    hash: hashToken(code),
    appId: grant.appId,
    userId: grant.userId,
    redirectUri: grant.redirectUri,
    scopes: [...grant.scopes],
    expiresAt: grant.now + AUTH_CODE_SECONDS,
  }]);
  return code;
}

/**
 * Takes a code for the app that asks. A code counts as used once anyone presents it, so a code
 * sent with the wrong redirect_uri (or by the wrong app) cannot be tried again.
 */
export async function redeemAuthCode(
  store: Store,
  request: { appId: ObjectId; code: string; redirectUri: string; now: number },
): Promise<AuthCode> {
  const stored = await store.takeAuthCode(hashToken(request.code));
  const valid =
    stored !== undefined &&
    stored.redirectUri !== LOGIN_LINK_MARK &&
    stored.appId === request.appId &&
    stored.redirectUri === request.redirectUri &&
    stored.expiresAt > request.now;
  if (!valid) throw new GraphError(100, VERIFICATION_FAILED);
  return stored;
}
