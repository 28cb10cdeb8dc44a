import { GraphError } from '../errors.js';

/** The Graph error body, keys in the order the real service writes them. */
export function errorBody(error: GraphError, traceId: string): { error: Record<string, unknown> } {
  const inner: Record<string, unknown> = { message: error.message, type: error.type };
  if (error.transient !== undefined) inner.is_transient = error.transient;
  inner.code = error.code;
  if (error.subcode !== undefined) inner.error_subcode = error.subcode;
  inner.fbtrace_id = traceId;
  return { error: inner };
}

/** Header values must be short printable ASCII, while messages may echo long or non-ASCII client text. */
const HEADER_MESSAGE_LIMIT = 300;

/** `OAuth "Facebook Platform" "<class>" "<message>"`, which some clients read before the body. */
export function authenticateHeader(error: GraphError): string | undefined {
  if (!error.authenticate) return undefined;
  let message = error.message.replace(/["\\]|[^\x20-\x7e]/g, ' ');
  if (message.length > HEADER_MESSAGE_LIMIT) message = `${message.slice(0, HEADER_MESSAGE_LIMIT)}...`;
  return `OAuth "Facebook Platform" "${error.authenticate}" "${message}"`;
}

/** Framework-level failures (bad JSON, oversized bodies) speak the Graph envelope too. */
export function fromFrameworkError(error: { code?: string; statusCode?: number; message: string }, bodyLimit: number): GraphError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GraphError(100, `(#100) The request body is larger than the limit of ${bodyLimit} bytes`, { status: 413 });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return GraphError.invalidParameter('The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return GraphError.invalidParameter('The request body has a content type Loom does not read');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return GraphError.invalidParameter('The request could not be read');
      }
      return GraphError.internal();
  }
}
