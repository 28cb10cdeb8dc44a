import type { GraphError } from '../errors.js';
import { rules, VERSION_RULES, type ApiVersion, type RuleName } from '../schema/versions.js';

/** The Graph error body, keys in the order the real service writes them, in the version that answered (when known). */
export function errorBody(error: GraphError, traceId: string, version?: ApiVersion): { error: Record<string, unknown> } {
  const inner: Record<string, unknown> = { message: error.message, type: error.type };
  if (error.transient !== undefined) inner.is_transient = error.transient;
  inner.code = error.code;
  const subcodeShown = error.subcodeWhile === undefined || version === undefined || subcodeRuleHolds(error.subcodeWhile, version);
  if (error.subcode !== undefined && subcodeShown) inner.error_subcode = error.subcode;
  inner.fbtrace_id = traceId;
  return { error: inner };
}

/** A rule an error names holds in the version; a name the versions table lacks holds nowhere. */
function subcodeRuleHolds(name: string, version: ApiVersion): boolean {
  return Object.hasOwn(VERSION_RULES, name) && rules.has(name as RuleName, version);
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
