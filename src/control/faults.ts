import { randomBytes } from 'node:crypto';
import { GraphError, type GraphErrorType } from '../errors.js';

/**
 * Faults: errors and delays a test asks for on purpose, answered exactly as the real service
 * answers that error, so a client's retry and error handling can be tested.
 */

interface FaultMatch {
  method?: string;
  /** A glob over the path without its version prefix: `*` stays inside one segment, `**` crosses them. */
  path?: string;
  app_id?: string;
  /** The user's id as the app sees it. */
  user_id?: string;
}

interface FaultError {
  code: number;
  error_subcode?: number;
  status?: number;
  message?: string;
  type?: GraphErrorType;
  is_transient?: boolean;
}

export interface Fault {
  id: string;
  match: FaultMatch;
  error?: FaultError;
  preset?: PresetName;
  delay_ms?: number;
  /** How many times it fires before it stops; unlimited when absent. */
  times?: number;
  probability?: number;
  /** How many times it has fired. */
  fired: number;
}

/** What a request looks like to a fault. */
export interface FaultTarget {
  method: string;
  path: string;
  appId: string | undefined;
  userId: string | undefined;
}

/** The errors of the real service a test most often needs, by name. */
const PRESETS = {
  app_rate_limit: { code: 4, message: '(#4) Application request limit reached', status: 403, is_transient: true },
  user_rate_limit: { code: 17, message: '(#17) User request limit reached', status: 403, is_transient: true },
  page_rate_limit: { code: 32, message: '(#32) Page request limited reached', status: 403, is_transient: true },
  api_rate_limit: { code: 613, message: '(#613) Calls to this api have exceeded the rate limit.', status: 400, is_transient: true },
  feed_rate_limit: { code: 341, message: '(#341) Feed action request limit reached', status: 400, is_transient: true },
  server_error: { code: 1, message: 'An unknown error has occurred.', status: 500, is_transient: true },
  temporarily_unavailable: { code: 2, message: 'An unexpected error has occurred. Please retry your request later.', status: 500, is_transient: true },
  expired_session: { code: 190, error_subcode: 463, message: '', status: 400 },
  invalidated_session: {
    code: 190,
    error_subcode: 460,
    message: 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
    status: 400,
  },
  permission_denied: { code: 200, message: "(#200) The user hasn't authorized the application to perform this action", status: 403 },
} satisfies Record<string, FaultError>;

type PresetName = keyof typeof PRESETS;
const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

const MAX_DELAY_MS = 60_000;
const MAX_FAULTS = 100;
const MAX_TEXT = 1000;

/** Checks a fault as a client posted it; the errors say which part is wrong. */
export function parseFault(body: unknown, existing: number): Fault {
  if (existing >= MAX_FAULTS) throw GraphError.invalidParameter(`At most ${MAX_FAULTS} faults may be active; delete some first`);
  if (!isObject(body)) throw GraphError.invalidParameter('A fault is a JSON object');
  const match = isObject(body.match) ? body.match : body.match === undefined ? {} : fail('match must be an object');
  const fault: Fault = { id: randomBytes(6).toString('hex'), match: {}, fired: 0 };
  for (const key of ['method', 'path', 'app_id', 'user_id'] as const) {
    const value = match[key];
    if (value === undefined) continue;
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).length > MAX_TEXT) fail(`match.${key} must be a short string`);
    fault.match[key] = key === 'method' ? String(value).toUpperCase() : String(value);
  }
  if (fault.match.path !== undefined && !fault.match.path.startsWith('/')) fault.match.path = `/${fault.match.path}`;
  if (body.preset !== undefined) {
    if (typeof body.preset !== 'string' || !(PRESET_NAMES as string[]).includes(body.preset)) fail(`preset must be one of ${PRESET_NAMES.join(', ')}`);
    fault.preset = body.preset as PresetName;
  }
  if (body.error !== undefined) {
    if (fault.preset) fail('A fault has either an error or a preset, not both');
    fault.error = parseError(body.error);
  }
  if (body.delay_ms !== undefined) fault.delay_ms = wholeNumber(body.delay_ms, 'delay_ms', 0, MAX_DELAY_MS);
  if (body.times !== undefined) fault.times = wholeNumber(body.times, 'times', 1, 1_000_000);
  if (body.probability !== undefined) {
    if (typeof body.probability !== 'number' || !(body.probability >= 0 && body.probability <= 1)) fail('probability must be a number from 0 to 1');
    fault.probability = body.probability;
  }
  if (!fault.preset && !fault.error && fault.delay_ms === undefined) fail('A fault needs an error, a preset or a delay_ms');
  return fault;
}

function parseError(value: unknown): FaultError {
  if (!isObject(value)) fail('error must be an object');
  const error: FaultError = { code: wholeNumber(value.code, 'error.code', 0, 1_000_000_000) };
  if (value.error_subcode !== undefined) error.error_subcode = wholeNumber(value.error_subcode, 'error.error_subcode', 0, 1_000_000_000);
  if (value.status !== undefined) error.status = wholeNumber(value.status, 'error.status', 400, 599);
  if (value.message !== undefined) {
    if (typeof value.message !== 'string' || value.message.length > MAX_TEXT) fail('error.message must be a string of at most 1000 characters');
    error.message = value.message;
  }
  if (value.type !== undefined) {
    const types: GraphErrorType[] = ['OAuthException', 'GraphMethodException', 'FacebookApiException', 'Exception'];
    if (!types.includes(value.type as GraphErrorType)) fail(`error.type must be one of ${types.join(', ')}`);
    error.type = value.type as GraphErrorType;
  }
  if (value.is_transient !== undefined) {
    if (typeof value.is_transient !== 'boolean') fail('error.is_transient must be true or false');
    error.is_transient = value.is_transient;
  }
  return error;
}

/** Whether the fault is meant for this request (its own chance aside). */
export function matches(fault: Fault, target: FaultTarget): boolean {
  if (fault.times !== undefined && fault.fired >= fault.times) return false;
  const { method, path, app_id: appId, user_id: userId } = fault.match;
  if (method !== undefined && method !== target.method.toUpperCase()) return false;
  if (appId !== undefined && appId !== target.appId) return false;
  if (userId !== undefined && userId !== target.userId) return false;
  return path === undefined || globToRegExp(path).test(target.path);
}

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*|\?)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** The error the fault answers with, as the real service words it at `now` (Unix seconds). */
export function faultError(fault: Fault, now: number): GraphError | undefined {
  if (fault.preset === 'expired_session') return GraphError.expiredToken(new Date((now - 3600) * 1000), new Date(now * 1000));
  const error: FaultError | undefined = fault.preset ? PRESETS[fault.preset] : fault.error;
  if (!error) return undefined;
  const code = error.code;
  return new GraphError(code, error.message ?? `(#${code}) An error injected by the control API`, {
    type: error.type ?? 'OAuthException',
    status: error.status ?? 400,
    ...(error.error_subcode !== undefined ? { subcode: error.error_subcode } : {}),
    ...(error.is_transient !== undefined ? { transient: error.is_transient } : {}),
    ...(code === 190 ? { authenticate: 'invalid_token' as const } : code === 200 ? { authenticate: 'insufficient_scope' as const } : {}),
  });
}

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) fail(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(message: string): never {
  throw GraphError.invalidParameter(message);
}
