/**
 * Where the sign-in dialog may send a person back, with a code or a token. Addresses are compared
 * parsed, by origin (scheme, host and port) and then by path, never as raw text: as text,
 * `https://good.example.evil.com` and `https://good.example@evil.com` both start with
 * `https://good.example`.
 */

const MAX_URI = 2048;
/** Only the person's own machine receives what is sent there. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Loom's own page that receives sign-ins: the Explorer's. */
export const OWN_CALLBACK_PATH = '/explorer/callback';

/** A redirect_uri as the dialog takes it: an absolute http(s) address without a fragment. */
export function parseRedirectUri(text: string): URL | undefined {
  if (text.length > MAX_URI || text.includes('#')) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : undefined;
}

/**
 * Whether the dialog may redirect to `url` for an app that registered `registered`: at or below
 * one of them, Loom's own sign-in callback (the Explorer signs in through the dialog too), or a
 * loopback host for local development. Never with a user name or password in it. Of Loom's own
 * origins only the callback page qualifies, so no other page of Loom can be made to pass a token on.
 */
export function isAllowedRedirect(url: URL, registered: readonly string[], ownOrigins: readonly string[]): boolean {
  if (url.username !== '' || url.password !== '') return false;
  if (LOOPBACK_HOSTS.has(url.hostname)) return true;
  if (ownOrigins.includes(url.origin) && url.pathname === OWN_CALLBACK_PATH) return true;
  return registered.some((entry) => URL.canParse(entry) && isAtOrBelow(url, new URL(entry)));
}

/**
 * Same origin, and the same path or one below it: `/cb` allows `/cb` and `/cb/done`, never `/cbx`.
 * Below the registered path, encoded slashes, backslashes and dots are refused: a server that
 * decodes them would read `/cb/..%2f..%2flogout` as a path outside `/cb`.
 */
function isAtOrBelow(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false;
  if (url.pathname === base.pathname) return true;
  const folder = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  if (!url.pathname.startsWith(folder)) return false;
  return !/%2f|%5c|%2e|\\/i.test(url.pathname.slice(folder.length));
}

/** A URI an app may register, in the form it is stored and compared in, or why it cannot be one. */
export function registrableRedirectUri(text: string): { uri: string } | { problem: string } {
  const url = text.includes('?') ? undefined : parseRedirectUri(text);
  if (!url) return { problem: `"${text.slice(0, 100)}" is not an absolute http or https address without ?query and #fragment` };
  if (url.username !== '' || url.password !== '') return { problem: `"${text.slice(0, 100)}" carries a user name or password` };
  return { uri: url.href };
}
