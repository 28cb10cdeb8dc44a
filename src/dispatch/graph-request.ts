export type GraphMethod = 'get' | 'post' | 'delete';

/** A file sent with a request: multipart parts, or a batch operation's `attached_files`. */
export interface UploadedFile {
  /** The multipart part's field name (`source`, `file1`…). */
  name: string;
  bytes: Buffer;
}

/**
 * A request as the Graph dialect sees it, free of any transport: a request sent alone and each
 * operation of a batch are both one of these.
 */
export interface GraphRequest {
  method: GraphMethod;
  /** Path components after the optional version prefix, percent-decoded. */
  components: string[];
  /** The version prefix of the path as written (`v2.3`), published or not; undefined when there is none. */
  versionText: string | undefined;
  /** Query string and body parameters together (the body wins), in the order they were sent. */
  params: Record<string, string>;
  accessToken: string | undefined;
  /** Request headers that matter to the graph (`if-none-match`), names in lower case. */
  headers: Record<string, string>;
  files: UploadedFile[];
  /**
   * Scheme and host of the absolute links its answer holds: the public URL when one is set,
   * else the host the request named (always that host when the client can reach Loom only
   * through it, as through the intercepting proxy).
   */
  linkBase: string;
  /** The id the answer names in errors and the `x-fb-trace-id` header. */
  traceId: string;
  /** Set on the operations of a batch, which may not hold batches themselves. */
  inBatch?: boolean;
  /** When Loom began to read the request (`performance.now()`): its work is counted from there. */
  receivedAt: number;
  /**
   * The store's auth version read as the request (or the batch operation) began, before anything
   * was written for it.
   */
  authVersion?: number;
}

export interface RequestParts {
  /** The HTTP verb, in any case. */
  verb: string;
  /** Path and query string, as in a request line or a batch operation's `relative_url`. */
  url: string;
  /** The query string of `url` as parseQueryString reads it, when that was done already. */
  query?: Record<string, string | string[]>;
  body: Record<string, string>;
  headers: Record<string, string>;
  /** The token that counts when neither the query nor the body names one (an Authorization header, a batch's own). */
  defaultToken?: string | undefined;
  files: UploadedFile[];
  linkBase: string;
  traceId: string;
  authVersion?: number;
}

const VERSION = /^v\d+\.\d+$/;

/**
 * A query string as its names and values: a repeated name gives the list of its values. The HTTP
 * server reads every query string with it too. Parsed by the platform's URLSearchParams, which
 * decodes a long, heavily escaped `fields` text many times faster than Fastify's own parser: that
 * one held the event loop for tens of milliseconds on a 70 kB expression.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(text)) {
    const earlier = query[key];
    if (earlier === undefined) query[key] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else query[key] = [earlier, value];
  }
  return query;
}

/** The one way a request becomes a GraphRequest, whether it came over HTTP or inside a batch. */
export function buildGraphRequest(parts: RequestParts): GraphRequest {
  const receivedAt = performance.now();
  const queryStart = parts.url.indexOf('?');
  const path = queryStart === -1 ? parts.url : parts.url.slice(0, queryStart);
  const components = path.split('/').filter((part) => part !== '').map(safeDecode);
  const versionText = components.length > 0 && VERSION.test(components[0]!) ? components.shift() : undefined;

  // A name given twice counts with its last value.
  const query = parts.query ?? parseQueryString(queryStart === -1 ? '' : parts.url.slice(queryStart + 1));
  const params: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    const value = query[key]!;
    params[key] = typeof value === 'string' ? value : value[value.length - 1]!;
  }
  Object.assign(params, parts.body);

  const override = params.method?.toLowerCase();
  const verb = parts.verb.toLowerCase();
  const method: GraphMethod =
    override === 'get' || override === 'post' || override === 'delete' ? override : verb === 'post' || verb === 'delete' ? verb : 'get';
  return {
    method,
    components,
    versionText,
    params,
    accessToken: params.access_token || parts.defaultToken,
    headers: parts.headers,
    files: parts.files,
    linkBase: parts.linkBase,
    traceId: parts.traceId,
    receivedAt,
    authVersion: parts.authVersion,
  };
}

function safeDecode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
