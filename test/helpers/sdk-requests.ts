/**
 * The HTTP requests that the Python and Ruby Graph clients send, rebuilt from their sources, for
 * clients that cannot be installed here. Each function follows one library's request code line by
 * line: where the token goes, how the body is encoded, how a DELETE travels.
 */
import { createHmac } from 'node:crypto';
import type { Reply, TestServer } from './server.js';

type Params = Record<string, string | string[]>;

export interface SentFile {
  name: string;
  bytes: Buffer;
  filename: string;
  type: string;
}

async function send(server: TestServer, method: string, path: string, query: Params, body: Params | undefined, files: SentFile[], contentType: string): Promise<Reply> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const one of [value].flat()) search.append(name, one);
  const url = `${server.url}${path}${search.size > 0 ? `?${search}` : ''}`;
  if (files.length > 0) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body ?? {})) for (const one of [value].flat()) form.append(name, one);
    for (const file of files) form.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
    return server.fetch(url, { method, body: form });
  }
  if (body === undefined || Object.keys(body).length === 0) return server.fetch(url, { method });
  const encoded = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) for (const one of [value].flat()) encoded.append(name, one);
  return server.fetch(url, { method, headers: { 'content-type': contentType }, body: encoded.toString() });
}

/**
 * Python `facebook-sdk`'s `GraphAPI.request(path, args, post_args, files, method)`: the token
 * (and `appsecret_proof`) go into `post_args` when it is non-empty, else into the query string;
 * `requests` form-encodes `data` and sends `files` as multipart. The path follows the base URL's
 * slash, as `FACEBOOK_GRAPH_URL + path` does.
 */
export function facebookSdkRequest(
  server: TestServer,
  graph: { accessToken?: string; appSecret?: string },
  path: string,
  options: { args?: Params; postArgs?: Params; files?: SentFile[]; method?: string } = {},
): Promise<Reply> {
  const args: Params = { ...options.args };
  const postArgs: Params | undefined = options.postArgs === undefined ? undefined : { ...options.postArgs };
  const method = options.postArgs !== undefined ? 'POST' : (options.method ?? 'GET');
  const add = (name: string, value: string) => {
    if (postArgs !== undefined && Object.keys(postArgs).length > 0 && !(name in postArgs)) postArgs[name] = value;
    else if (!(name in args)) args[name] = value;
  };
  if (graph.accessToken) add('access_token', graph.accessToken);
  if (graph.accessToken && graph.appSecret) add('appsecret_proof', createHmac('sha256', graph.appSecret).update(graph.accessToken).digest('hex'));
  return send(server, method, `/${path}`, args, postArgs, options.files ?? [], 'application/x-www-form-urlencoded');
}

/**
 * Ruby `koala`'s `API#api` and `HTTPService::Request`: GET puts the arguments in the query
 * string; every other verb is a POST whose form body holds them, plus `method=<verb>` when the
 * verb was not POST; arrays of plain values are joined with commas; the version prefixes the path.
 */
export function koalaRequest(
  server: TestServer,
  api: { accessToken?: string; appSecret?: string; apiVersion?: string },
  path: string,
  args: Params = {},
  verb: 'get' | 'post' | 'delete' = 'get',
  files: SentFile[] = [],
): Promise<Reply> {
  const sent: Params = {};
  for (const [name, value] of Object.entries(args)) sent[name] = Array.isArray(value) ? value.join(',') : value;
  if (api.accessToken && sent.access_token === undefined) sent.access_token = api.accessToken;
  if (api.appSecret && sent.access_token) sent.appsecret_proof = createHmac('sha256', api.appSecret).update(String(sent.access_token)).digest('hex');
  const slashed = path.startsWith('/') ? path : `/${path}`;
  const versioned = api.apiVersion && !/^\/?v\d+(\.\d+)?\//.test(slashed) ? `/${api.apiVersion}${slashed}` : slashed;
  if (verb === 'get') return send(server, 'GET', versioned, sent, undefined, files, '');
  const body = verb === 'post' ? sent : { ...sent, method: verb };
  return send(server, 'POST', versioned, {}, body, files, 'application/x-www-form-urlencoded');
}
