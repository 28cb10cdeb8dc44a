import type { FastifyRequest } from 'fastify';

export type GraphMethod = 'get' | 'post' | 'delete';

/** A request as the Graph dialect sees it: path components, one flat parameter map, a token. */
export interface GraphRequest {
  method: GraphMethod;
  /** Path components after the optional version prefix, percent-decoded. */
  components: string[];
  /** The version prefix of the path as written (`v2.3`), published or not; undefined when there is none. */
  versionText: string | undefined;
  /** Query string and body parameters together (the body wins), in the order they were sent. */
  params: Record<string, string>;
  accessToken: string | undefined;
}

const VERSION = /^v\d+\.\d+$/;

/** A fixed path and the same path under any version prefix (`/oauth/access_token`, `/v2.4/oauth/access_token`). */
export function versionedPaths(path: string): string[] {
  return [path, `/:version(^v\\d+\\.\\d+$)${path}`];
}

/** `body` is the parsed body: Fastify's, or the plain parts of a multipart body. */
export function toGraphRequest(request: FastifyRequest, body: unknown = request.body): GraphRequest {
  const url = request.raw.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const components = path.split('/').filter((part) => part !== '').map(safeDecode);
  const versionText = components.length > 0 && VERSION.test(components[0]!) ? components.shift() : undefined;

  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1))) params[key] = value;
  Object.assign(params, bodyParams(body));

  const override = params.method?.toLowerCase();
  const method =
    override === 'get' || override === 'post' || override === 'delete'
      ? override
      : (request.method.toLowerCase() as GraphMethod);
  return { method, components, versionText, params, accessToken: params.access_token || headerToken(request.headers.authorization) };
}

/** Form bodies arrive as strings; JSON bodies may nest (`privacy={"value":"SELF"}`), kept as JSON text. */
function bodyParams(body: unknown): Record<string, string> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    params[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return params;
}

/** `Authorization: OAuth <token>` (what some SDKs send) or `Bearer <token>`. */
function headerToken(header: string | undefined): string | undefined {
  const match = header ? /^(?:OAuth|Bearer)\s+(\S+)$/i.exec(header.trim()) : null;
  return match?.[1];
}

function safeDecode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
