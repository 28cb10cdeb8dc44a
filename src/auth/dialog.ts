import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';
import { issueAuthCode } from './auth-codes.js';
import type { Permissions } from '../schema/permissions.js';
import type { ApiVersion } from '../schema/versions.js';
import { recordConsent } from './grants.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { isAllowedRedirect, parseRedirectUri } from './redirect-uris.js';
import { issueUserToken } from './tokens.js';

/** What an app asks of the sign-in dialog (`/dialog/oauth?client_id&redirect_uri&scope&state&response_type`). */
export interface DialogRequest {
  app: AppRecord;
  redirectUri: string;
  /** Requested permissions, without duplicates, in the order asked. */
  scopes: string[];
  state?: string;
  responseType: 'code' | 'token';
}

/** A dialog request that cannot be served; shown to the person as a page, never sent to the redirect_uri. */
export class DialogError extends Error {
  constructor(
    message: string,
    readonly title = 'This link cannot be used',
  ) {
    super(message);
  }
}

const URL_BLOCKED = 'URL Blocked';
/** The real service's page for a redirect_uri the app has not registered. */
const NOT_WHITELISTED =
  'This redirect failed because the redirect URI is not whitelisted in the app’s Client OAuth Settings. ' +
  'Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs.';

const MAX_STATE = 2048;
const MAX_SCOPES = 100;
const MAX_EMAIL = 254;
const MAX_PASSWORD = 1024;

/**
 * Checks a dialog's parameters: an app may ask for the permissions the schema in force offers in
 * the version the dialog answers in for it (`versionFor`); `ownOrigins` are the origins Loom
 * itself answers on (see isAllowedRedirect).
 */
export async function openDialog(
  store: Store,
  query: Record<string, unknown>,
  options: { permissions: Permissions; versionFor: (app: AppRecord) => ApiVersion; ownOrigins: readonly string[] },
): Promise<DialogRequest> {
  const params = singleValues(query, ['client_id', 'redirect_uri', 'response_type', 'state', 'scope']);
  const clientId = params.client_id ?? '';
  const app = /^\d{1,15}$/.test(clientId) ? (await store.getApps([Number(clientId)])).get(Number(clientId)) : undefined;
  if (!app) throw new DialogError(`Invalid App ID: ${clientId ? `"${clientId.slice(0, 64)}" is not the id of an app on this server.` : 'the client_id parameter is missing.'}`);
  const redirectUri = params.redirect_uri;
  if (!redirectUri) throw new DialogError('The redirect_uri parameter is missing.');
  const url = parseRedirectUri(redirectUri);
  if (!url) throw new DialogError('The redirect_uri must be an absolute http or https address without a #fragment.', URL_BLOCKED);
  if (!isAllowedRedirect(url, app.redirectUris, options.ownOrigins)) throw new DialogError(NOT_WHITELISTED, URL_BLOCKED);
  const responseType = params.response_type ?? 'code';
  if (responseType !== 'code' && responseType !== 'token') {
    throw new DialogError(`Unsupported response_type "${responseType.slice(0, 64)}": use code or token.`);
  }
  const state = params.state;
  if (state !== undefined && state.length > MAX_STATE) throw new DialogError(`The state parameter is longer than ${MAX_STATE} characters.`);
  const scopes = [...new Set((params.scope ?? '').split(/[\s,]+/).filter(Boolean))];
  if (scopes.length > MAX_SCOPES) throw new DialogError(`At most ${MAX_SCOPES} permissions can be requested at once.`);
  const version = options.versionFor(app);
  const unknown = scopes.filter((scope) => !options.permissions.offers(scope, version));
  if (unknown.length > 0) throw new DialogError(`Invalid Scopes: ${unknown.join(', ').slice(0, 500)}.`);
  return { app, redirectUri, scopes, state, responseType };
}

/** The named parameters as single strings; a parameter given twice is a mistake, not a list. */
function singleValues<K extends string>(query: Record<string, unknown>, names: readonly K[]): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new DialogError(`The ${name} parameter may be given only once.`);
    values[name] = value;
  }
  return values;
}

let unknownEmailHash: Promise<string> | undefined;

/**
 * The person an email and password belong to. An unknown email costs as much time as a wrong
 * password, so the answer's timing does not tell which emails have accounts.
 */
export async function signIn(store: Store, email: string, password: string): Promise<ObjectId | undefined> {
  if (email.length === 0 || email.length > MAX_EMAIL || password.length > MAX_PASSWORD) return undefined;
  const credentials = await store.findCredentialsByEmail(email.trim());
  unknownEmailHash ??= hashPassword('loom: no such account');
  const matches = await verifyPassword(password, credentials?.passwordHash ?? (await unknownEmailHash));
  return matches && credentials ? credentials.userId : undefined;
}

export type Decision = { allow: false } | { allow: true; ticked: readonly string[] };

/**
 * Where the browser goes after the consent page. Declining sends the real service's error
 * parameters; approving records the answer per permission (unticked ones as declined) and sends
 * a single-use code, or a token in the fragment for `response_type=token`.
 */
export async function finishDialog(
  store: Store,
  request: DialogRequest,
  userId: ObjectId,
  decision: Decision,
  options: { permissions: Permissions; now: number; tokenLifetime: number },
): Promise<string> {
  const state: Record<string, string> = request.state === undefined ? {} : { state: request.state };
  if (!decision.allow) {
    return withQuery(request.redirectUri, {
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
      ...state,
    });
  }
  const ticked = new Set(decision.ticked);
  const asked = request.scopes.filter((scope) => scope !== options.permissions.alwaysGranted);
  const scopes = await recordConsent(store, options.permissions, request.app.id, userId, {
    granted: asked.filter((scope) => ticked.has(scope)),
    declined: asked.filter((scope) => !ticked.has(scope)),
  });
  const grant = { appId: request.app.id, userId, scopes, now: options.now };
  if (request.responseType === 'token') {
    const { accessToken } = await issueUserToken(store, { ...grant, expiresIn: options.tokenLifetime });
    return withFragment(request.redirectUri, { access_token: accessToken, expires_in: String(options.tokenLifetime), ...state });
  }
  const code = await issueAuthCode(store, { ...grant, redirectUri: request.redirectUri });
  return withQuery(request.redirectUri, { code, ...state });
}

function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.toString();
}

function withFragment(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  url.hash = new URLSearchParams(params).toString();
  return url.toString();
}
