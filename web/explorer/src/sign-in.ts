/**
 * Getting a user token through the app's OAuth dialog (implicit flow, `response_type=token`).
 * The dialog opens in a popup and the callback page hands the token back by message; where
 * popups are blocked the whole tab goes to the dialog and the callback page brings it back.
 * A random `state` ties each answer to the request this page made.
 */
import { isRecord } from './guards.js';
import { readStored, writeStored } from './storage.js';

const CALLBACK_PATH = '/explorer/callback';
export const MESSAGE_KIND = 'loom-sign-in';
/** Where the callback page leaves the dialog's answer when there is no opener to send it to. */
export const RESULT_KEY = 'loom.explorer.sign-in-result';
const PENDING_KEY = 'loom.explorer.sign-in';

export interface SignInResult {
  accessToken: string;
  /** Seconds, as the dialog said; 0 when the token never expires. */
  expiresIn: number | undefined;
  appId: string;
}

interface Pending {
  state: string;
  appId: string;
}

function isPending(value: unknown): value is Pending {
  return isRecord(value) && typeof value.state === 'string' && typeof value.appId === 'string';
}

function isParams(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

function dialogUrl(appId: string, scopes: readonly string[], state: string): string {
  const query = new URLSearchParams({
    client_id: appId,
    redirect_uri: `${location.origin}${CALLBACK_PATH}`,
    scope: scopes.join(','),
    state,
    response_type: 'token',
  });
  return `/dialog/oauth?${query}`;
}

/** Opens the dialog; settles when the person has signed in and approved, refused, or closed the window. */
export function signIn(appId: string, scopes: readonly string[]): Promise<SignInResult> {
  const pending: Pending = { state: randomState(), appId };
  writeStored(sessionStorage, PENDING_KEY, pending);
  const url = dialogUrl(appId, scopes, pending.state);
  const popup = window.open(url, 'loom-sign-in', 'popup,width=520,height=720');
  if (!popup) {
    location.assign(url);
    return new Promise(() => undefined);
  }
  popup.focus();
  return new Promise((resolve, reject) => {
    let closedSince = 0;
    const finish = () => {
      window.removeEventListener('message', onMessage);
      clearInterval(watch);
      writeStored(sessionStorage, PENDING_KEY, undefined);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.source !== popup) return;
      const data: unknown = event.data;
      if (!isRecord(data) || data.kind !== MESSAGE_KIND || !isParams(data.params)) return;
      finish();
      try {
        resolve(readAnswer(data.params, pending));
      } catch (error) {
        reject(error);
      }
    };
    // The callback closes the popup right after sending its message; give that message time to arrive.
    const watch = setInterval(() => {
      if (!popup.closed) return;
      closedSince ||= Date.now();
      if (Date.now() - closedSince < 1000) return;
      finish();
      reject(new Error('The sign-in window was closed before it finished.'));
    }, 250);
    window.addEventListener('message', onMessage);
  });
}

/** The answer the callback page left in this tab after a same-tab sign-in, once. */
export function takeSameTabResult(): SignInResult | Error | undefined {
  const params = readStored(sessionStorage, RESULT_KEY, isParams);
  if (!params) return undefined;
  writeStored(sessionStorage, RESULT_KEY, undefined);
  const pending = readStored(sessionStorage, PENDING_KEY, isPending);
  writeStored(sessionStorage, PENDING_KEY, undefined);
  try {
    if (!pending) throw new Error('A sign-in answer arrived that this page did not ask for.');
    return readAnswer(params, pending);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function readAnswer(params: Record<string, string>, pending: Pending): SignInResult {
  if (params.error) throw new Error(params.error_description || params.error_reason || params.error);
  if (params.state !== pending.state) throw new Error('The sign-in answer does not belong to this request; please try again.');
  if (!params.access_token) throw new Error('The dialog answered without a token.');
  const expiresIn = params.expires_in === undefined ? undefined : Number(params.expires_in);
  return { accessToken: params.access_token, expiresIn: Number.isFinite(expiresIn) ? expiresIn : undefined, appId: pending.appId };
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
