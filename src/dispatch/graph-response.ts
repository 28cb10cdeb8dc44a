import { hash } from 'node:crypto';
import type { GraphError } from '../errors.js';
import type { ApiVersion } from '../schema/versions.js';
import { reformatTimes } from './date-format.js';
import { authenticateHeader, errorBody } from './error-envelope.js';
import { jsonText } from './json-text.js';
import type { OutputOptions } from './output-options.js';

const JSON_TYPE = 'application/json; charset=UTF-8';
const JSONP_TYPE = 'text/javascript; charset=UTF-8';
const PICTURE_REDIRECT_TYPE = 'image/jpeg';
const PLAIN_TEXT_TYPE = 'text/plain; charset=UTF-8';

/**
 * A Graph answer, free of any transport: what the HTTP route writes, and what a batch turns
 * into one of its items. Header names are written the way the real service writes them.
 */
export interface GraphResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A note for `debug=all`: why the answer differs from what was asked. */
export interface DebugMessage {
  message: string;
  type: 'info' | 'warning';
  link?: string;
}

/**
 * Headers every Graph answer carries, the one error-free way to write them. `Facebook-API-Version`
 * is added by whoever knows which version answered (dispatch, or the app's default for the rest).
 */
function commonHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'private, no-cache, no-store, must-revalidate',
    Pragma: 'no-cache',
    Expires: 'Sat, 01 Jan 2000 00:00:00 GMT',
  };
}

/** What a request says about caching: its `If-None-Match`, and whether it reads (only reads get an ETag). */
export interface Conditions {
  method: string;
  ifNoneMatch?: string | undefined;
}

/**
 * A successful value written as the options ask: times reformatted, debug notes added, indented,
 * wrapped for JSONP. A 200 read carries the SHA-1 of its exact bytes as its ETag, and becomes an
 * empty 304 when the client already holds those bytes.
 */
export async function presentValue(
  options: OutputOptions,
  conditions: Conditions,
  status: number,
  value: unknown,
  extraHeaders: Record<string, string>,
  debugMessages: readonly DebugMessage[] = [],
): Promise<GraphResponse> {
  let shaped = options.dateFormat === undefined ? value : await reformatTimes(value, options.dateFormat);
  if (options.debug && shaped !== null && typeof shaped === 'object' && !Array.isArray(shaped)) {
    shaped = { ...shaped, __debug__: { messages: debugMessages } };
  }
  // An answer can be large (megabytes of aliased edges): its text is made in slices, between other requests.
  const text = jsonText(shaped, indentOf(options));
  const response = serialise(options, status, typeof text === 'string' ? text : await text, extraHeaders);
  if (conditions.method !== 'get' || status !== 200) return response;
  response.headers.ETag = `"${hash('sha1', response.body, 'hex')}"`;
  return conditionally(response, conditions.ifNoneMatch);
}

/** A read's answer as the client asked for it: an empty 304 when it already holds those bytes (its ETag). */
export function conditionally(response: GraphResponse, ifNoneMatch: string | undefined): GraphResponse {
  const etag = response.headers.ETag;
  if (etag === undefined || !matchesEtag(ifNoneMatch, etag)) return response;
  const { 'Content-Type': _type, ...headers } = response.headers;
  return { status: 304, headers, body: '' };
}

/** The Graph error envelope, with the WWW-Authenticate header some clients read before the body. */
export function presentError(options: OutputOptions, error: GraphError, traceId: string, version?: ApiVersion): GraphResponse {
  const header = authenticateHeader(error);
  // An error envelope is small: its text is made at once.
  return serialise(options, error.status, JSON.stringify(errorBody(error, traceId, version), null, indentOf(options)), header ? { 'WWW-Authenticate': header } : {});
}

/**
 * A pointer elsewhere (a picture edge): a 302 with its Location and no body. Its type is an
 * image's, as the real service sends it: clients (npm fbgraph) tell a picture from a JSON answer by it.
 */
export function presentRedirect(location: string): GraphResponse {
  return { status: 302, headers: { ...commonHeaders(PICTURE_REDIRECT_TYPE), Location: location }, body: '' };
}

/** An answer that is text, not JSON: the token endpoint's form-encoded token before v2.3. */
export class PlainText {
  constructor(readonly text: string) {}
}

export function presentPlainText(answer: PlainText): GraphResponse {
  return { status: 200, headers: commonHeaders(PLAIN_TEXT_TYPE), body: answer.text };
}

/** `pretty=1` indents by three spaces, as the real service does. */
function indentOf(options: OutputOptions): number {
  return options.pretty ? 3 : 0;
}

function serialise(options: OutputOptions, status: number, json: string, extraHeaders: Record<string, string>): GraphResponse {
  const body = options.callback === undefined ? json : `/**/ ${options.callback}(${json});`;
  const headers = commonHeaders(options.callback === undefined ? JSON_TYPE : JSONP_TYPE);
  for (const name in extraHeaders) headers[name] = extraHeaders[name]!;
  return { status: options.suppressHttpCode ? 200 : status, headers, body };
}

/** `If-None-Match: "a", "b"` or `*`; weak tags (`W/"a"`) match too, as they only ever name these bytes. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
