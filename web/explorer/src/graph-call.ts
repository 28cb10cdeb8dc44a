/**
 * A query as the Explorer holds it (method, the path box's text, extra parameters) and the HTTP
 * request it becomes. Pure, so the same request is sent, shown as curl and kept in history.
 */

export type Method = 'GET' | 'POST' | 'DELETE';
export const METHODS: readonly Method[] = ['GET', 'POST', 'DELETE'];
export const API_VERSION = 'v2.4';

export type Param = [name: string, value: string];

export interface GraphCall {
  method: Method;
  /** What the path box holds: `me?fields=id,name`, without the version. */
  path: string;
  /** The key/value rows; for POST they make the body. */
  params: Param[];
}

export interface PreparedCall {
  method: Method;
  url: string;
  /** Form fields of a POST body. */
  body?: Param[];
}

const VERSION = /^v\d+\.\d+$/;
/** Parameters that are credentials or exchange for one: never kept in history, the address or links. */
const SECRET_PARAMS = new Set(['access_token', 'appsecret_proof', 'input_token', 'client_secret', 'password', 'fb_exchange_token', 'code']);
/**
 * Parameters that change what the server does with a request (`method` turns even a GET into a
 * write) or the shape of its answer: a link or a shared address never brings them in.
 */
const CONTROL_PARAMS = new Set(['method', 'suppress_http_code', 'callback']);
const OVERRIDE = 'method';
/** What a link or a shared address leaves behind. */
const NOT_SHARED = new Set([...SECRET_PARAMS, ...CONTROL_PARAMS]);

/** The request a call makes against `base` (the server's origin), with `token` unless the call names its own. */
export function prepareCall(call: GraphCall, base: string, token: string | undefined): PreparedCall {
  const { path, query } = splitPath(call.path);
  const extra = call.params.filter(([name]) => name.trim() !== '');
  const named = [...query, ...extra].some(([name]) => name === 'access_token');
  const credentials: Param[] = token && !named ? [['access_token', token]] : [];
  const address = `${base}/${API_VERSION}/${path}`;
  if (call.method === 'POST') {
    return { method: 'POST', url: withQuery(address, query), body: [...extra, ...credentials] };
  }
  return { method: call.method, url: withQuery(address, [...query, ...extra, ...credentials]) };
}

/** The path box's text split into the path (version dropped) and its query parameters. */
export function splitPath(text: string): { path: string; query: Param[] } {
  const trimmed = text.trim();
  const mark = trimmed.indexOf('?');
  const segments = (mark === -1 ? trimmed : trimmed.slice(0, mark)).split('/').filter((part) => part !== '');
  if (segments.length > 0 && VERSION.test(segments[0]!)) segments.shift();
  const query = mark === -1 ? [] : [...new URLSearchParams(trimmed.slice(mark + 1))];
  return { path: segments.join('/'), query };
}

/** A shell command that sends the same request. */
export function curlCommand(prepared: PreparedCall): string {
  const parts = ['curl', '-g'];
  if (prepared.method !== 'GET') parts.push('-X', prepared.method);
  parts.push(shellQuote(prepared.url));
  for (const [name, value] of prepared.body ?? []) parts.push('--data-urlencode', shellQuote(`${name}=${value}`));
  return parts.join(' ');
}

/** Loom's own origins: the page's, and that of the public URL Loom is configured with (its links use it). */
export function graphOrigins(pageOrigin: string, publicUrl: string | undefined): string[] {
  const configured = publicUrl === undefined ? undefined : originOf(publicUrl);
  return configured === undefined || configured === pageOrigin ? [pageOrigin] : [pageOrigin, configured];
}

/**
 * The path box text for a link the API wrote (`paging.next`, a metadata connection): the
 * version, origin, credentials and control parameters dropped, so following it is a plain read.
 * Undefined for links that are not to a Graph path on one of Loom's own `origins`: a link
 * anyone wrote into a post must not run with the viewer's token.
 */
export function pathOfGraphLink(link: string, origins: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter((part) => part !== '');
  if (segments.length < 2 || !VERSION.test(segments[0]!) || !origins.includes(url.origin)) return undefined;
  return withQuery(segments.slice(1).join('/'), [...url.searchParams].filter(([name]) => !NOT_SHARED.has(name)));
}

/**
 * The call as the server takes it: a `method` parameter, in the path's query or a row, overrides
 * the verb whatever verb carries it, so it becomes the call's method (the last one wins, as on
 * the server; one the server ignores is dropped).
 */
export function withMethodResolved(call: GraphCall): GraphCall {
  const { query } = splitPath(call.path);
  const override = [...query, ...call.params].filter(([name]) => name === OVERRIDE).pop()?.[1].toUpperCase();
  if (override === undefined) return call;
  const method = METHODS.find((known) => known === override) ?? call.method;
  return { ...withoutParams(call, new Set([OVERRIDE])), method };
}

/** The call without credentials, as history and the address keep it. */
export function withoutSecrets(call: GraphCall): GraphCall {
  return withoutParams(call, SECRET_PARAMS);
}

/**
 * A call someone else wrote (an Explorer address they shared): its method stated by the method
 * box, never hidden in a parameter, and without credentials or parameters that reshape the answer.
 */
export function sharedCall(call: GraphCall): GraphCall {
  return withoutParams(withMethodResolved(call), NOT_SHARED);
}

function withoutParams(call: GraphCall, names: ReadonlySet<string>): GraphCall {
  const { path, query } = splitPath(call.path);
  return {
    method: call.method,
    path: withQuery(path, query.filter(([name]) => !names.has(name))),
    params: call.params.filter(([name]) => !names.has(name)),
  };
}

function originOf(address: string): string | undefined {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

function withQuery(path: string, query: readonly Param[]): string {
  if (query.length === 0) return path;
  return `${path}?${query.map(([name, value]) => `${readable(name)}=${readable(value)}`).join('&')}`;
}

/** Percent-encoding that leaves the `fields` syntax legible: `fields=id,friends{name}`. */
function readable(text: string): string {
  return encodeURIComponent(text).replace(/%(2C|7B|7D|3A|2F|40|24)/gi, (escape) => decodeURIComponent(escape));
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
