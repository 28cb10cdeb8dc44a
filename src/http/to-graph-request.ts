import type { FastifyRequest } from 'fastify';
import { buildGraphRequest, type GraphRequest, type UploadedFile } from '../dispatch/graph-request.js';
import { linkBaseUrl, requestOrigin } from './intercept-proxy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The store's auth version, read by the hook that runs first on every request. */
    authVersion: number | undefined;
  }
}

/** A fixed path and the same path under any version prefix (`/oauth/access_token`, `/v2.4/oauth/access_token`). */
export function versionedPaths(path: string): string[] {
  return [path, `/:version(^v\\d+\\.\\d+$)${path}`];
}

/**
 * An HTTP request as the Graph request it makes. `body` is the parsed body: Fastify's, or the
 * plain parts of a multipart body; `publicUrl` the base of links the server was given, if any.
 */
export function toGraphRequest(request: FastifyRequest, publicUrl: string | undefined, body: unknown = request.body, files: UploadedFile[] = []): GraphRequest {
  const headers: Record<string, string> = {};
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
  const url = request.raw.url ?? '/';
  return buildGraphRequest({
    verb: request.method,
    url,
    // The framework parsed the query string already. It also splits a URL at a `#`, which no
    // request line should hold: such a URL is read the way a batch operation's is.
    query: url.includes('#') ? undefined : (request.query as Record<string, string | string[]>),
    body: bodyParams(body),
    headers,
    defaultToken: headerToken(request.headers.authorization),
    files,
    linkBase: linkBaseUrl(requestOrigin(request), publicUrl),
    traceId: request.id,
    authVersion: request.authVersion,
  });
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
