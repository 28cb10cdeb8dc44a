import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import { appAccessToken, authenticateClient } from './apps.js';
import { redeemAuthCode } from './auth-codes.js';
import { issueUserToken, LONG_LIVED_SECONDS } from './tokens.js';
import { inspectToken } from './viewer.js';

/** The JSON body of `/oauth/access_token` (v2.3 and later). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in?: number;
}

export interface TokenEndpointOptions {
  /** Unix seconds. */
  now: number;
  /** Lifetime of the short-lived user tokens a code is exchanged for, in seconds. */
  tokenLifetime: number;
}

/**
 * The form-encoded body the endpoint answered before v2.3: `access_token=…`, and `&expires=<seconds>`
 * for a token that expires. The value is written as issued (an app token's `|` unescaped), as the
 * real service wrote it; clients split on `&` and `=`.
 */
export function formEncodedToken(token: TokenResponse): string {
  return token.expires_in === undefined ? `access_token=${token.access_token}` : `access_token=${token.access_token}&expires=${token.expires_in}`;
}

/**
 * `GET|POST /oauth/access_token` in two steps: the client proves itself with its secret, then a
 * token is issued under its grant (client credentials, authorization code or long-lived exchange).
 * The caller is known between the two, so a fault or a rate limit can answer in place of the token.
 */
export async function authenticatedClient(store: Store, params: Record<string, string>): Promise<AppRecord> {
  const grantType = params.grant_type;
  if (grantType !== undefined && !['client_credentials', 'fb_exchange_token', 'authorization_code'].includes(grantType)) {
    throw GraphError.invalidParameter(`Unsupported grant_type: ${grantType.slice(0, 100)}`);
  }
  return authenticateClient(store, params.client_id, params.client_secret);
}

export async function issueForGrant(store: Store, app: AppRecord, params: Record<string, string>, options: TokenEndpointOptions): Promise<TokenResponse> {
  const grantType = params.grant_type;
  if (grantType === 'client_credentials') return { access_token: appAccessToken(app), token_type: 'bearer' };

  if (grantType === 'fb_exchange_token') {
    const given = params.fb_exchange_token;
    if (!given) throw new GraphError(1, 'fb_exchange_token parameter not specified');
    const inspection = await inspectToken(store, given, options.now);
    if (!inspection.valid) throw inspection.error;
    const { viewer, record } = inspection;
    if (viewer.kind !== 'user' || viewer.userId === null || viewer.app.id !== app.id || !record) throw GraphError.invalidToken();
    const issued = await issueUserToken(store, {
      appId: app.id,
      userId: viewer.userId,
      scopes: record.scopes,
      expiresIn: LONG_LIVED_SECONDS,
      now: options.now,
    });
    return { access_token: issued.accessToken, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS };
  }

  if (!params.redirect_uri) throw new GraphError(191, 'Missing redirect_uri parameter.');
  if (!params.code) throw new GraphError(1, 'Missing authorization code');
  const code = await redeemAuthCode(store, { appId: app.id, code: params.code, redirectUri: params.redirect_uri, now: options.now });
  const issued = await issueUserToken(store, {
    appId: app.id,
    userId: code.userId,
    scopes: code.scopes,
    expiresIn: options.tokenLifetime,
    now: options.now,
  });
  return { access_token: issued.accessToken, token_type: 'bearer', expires_in: options.tokenLifetime };
}
