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
/** Parameters that are credentials: never kept in history or shown in links. */
const SECRET_PARAMS = new Set(['access_token', 'appsecret_proof']);

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

/**
 * The path box text for a link the API wrote (`paging.next`, a metadata connection): the
 * version, origin and credentials dropped. Undefined for links that are not to a Graph path.
 */
export function pathOfGraphLink(link: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter((part) => part !== '');
  if (segments.length < 2 || !VERSION.test(segments[0]!)) return undefined;
  if (url.origin !== origin && !url.searchParams.has('access_token')) return undefined;
  return withQuery(segments.slice(1).join('/'), [...url.searchParams].filter(([name]) => !SECRET_PARAMS.has(name)));
}

/** The call without credentials, as history keeps it. */
export function withoutSecrets(call: GraphCall): GraphCall {
  const { path, query } = splitPath(call.path);
  return {
    method: call.method,
    path: withQuery(path, query.filter(([name]) => !SECRET_PARAMS.has(name))),
    params: call.params.filter(([name]) => !SECRET_PARAMS.has(name)),
  };
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
