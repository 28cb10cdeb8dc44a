/**
 * Every failure a client can cause is a GraphError: it carries the Graph error code, type and
 * message, and the HTTP status and WWW-Authenticate class the real service pairs with them.
 */
export type GraphErrorType = 'OAuthException' | 'GraphMethodException' | 'GraphBatchException' | 'FacebookApiException' | 'Exception';
export type AuthenticateClass = 'invalid_token' | 'invalid_request' | 'not_found' | 'insufficient_scope';

export interface GraphErrorOptions {
  type?: GraphErrorType;
  status?: number;
  subcode?: number;
  /**
   * The subcode is sent only in the API versions where this rule of the versions table holds:
   * its name, which the error envelope looks up, so errors stay a leaf that knows no schema.
   */
  subcodeWhile?: string;
  authenticate?: AuthenticateClass | null;
  /** Whether retrying the same call later may succeed (rate limits, outages): `is_transient` in the body. */
  transient?: boolean;
}

export class GraphError extends Error {
  readonly code: number;
  readonly type: GraphErrorType;
  readonly status: number;
  readonly subcode: number | undefined;
  readonly subcodeWhile: string | undefined;
  readonly authenticate: AuthenticateClass | null;
  readonly transient: boolean | undefined;

  constructor(code: number, message: string, options: GraphErrorOptions = {}) {
    super(message);
    this.name = 'GraphError';
    this.code = code;
    this.type = options.type ?? 'OAuthException';
    this.status = options.status ?? 400;
    this.subcode = options.subcode;
    this.subcodeWhile = options.subcodeWhile;
    this.authenticate = options.authenticate === undefined ? 'invalid_request' : options.authenticate;
    this.transient = options.transient;
  }

  /** (#100) errors: a parameter or expression the client got wrong. */
  static invalidParameter(detail: string): GraphError {
    return new GraphError(100, `(#100) ${detail}`);
  }

  static nonexistingField(field: string, typeLabel: string): GraphError {
    const shown = field.length > 200 ? `${field.slice(0, 200)}...` : field;
    return GraphError.invalidParameter(`Tried accessing nonexisting field (${shown}) on node type (${typeLabel})`);
  }

  static unknownPath(components: string): GraphError {
    return new GraphError(2500, `Unknown path components: ${components}`);
  }

  /** Subcode 33 is what clients' suites match on; the service has sent it in every version since 2016, and Loom from v2.4. */
  static objectNotFound(id: string, method: 'get' | 'post' | 'delete' = 'get'): GraphError {
    return new GraphError(
      100,
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      { type: 'GraphMethodException', subcode: 33, subcodeWhile: 'unknown-object-subcode' },
    );
  }

  static noToken(): GraphError {
    return new GraphError(104, 'An access token is required to request this resource.');
  }

  static activeTokenRequired(): GraphError {
    return new GraphError(2500, 'An active access token must be used to query information about the current user.');
  }

  static invalidToken(): GraphError {
    return new GraphError(190, 'Invalid OAuth access token.', { authenticate: 'invalid_token' });
  }

  static expiredToken(expiredAt: Date, now: Date): GraphError {
    return new GraphError(
      190,
      `Error validating access token: Session has expired on ${sessionTime(expiredAt)}. The current time is ${sessionTime(now)}.`,
      { subcode: 463, authenticate: 'invalid_token' },
    );
  }

  static appNotAuthorized(userId: string, appId: number): GraphError {
    return new GraphError(190, `Error validating access token: User ${userId} has not authorized application ${appId}.`, {
      subcode: 458,
      authenticate: 'invalid_token',
    });
  }

  /** Any use of a deleted app's id, secret or tokens. */
  static appDeleted(): GraphError {
    return new GraphError(190, 'Error validating application. Application has been deleted.', { authenticate: 'invalid_token' });
  }

  static permission(detail = "The user hasn't authorized the application to perform this action"): GraphError {
    return new GraphError(200, `(#200) ${detail}`, { status: 403, authenticate: 'insufficient_scope' });
  }

  /** A name the API version of the request no longer serves, though an earlier one did. */
  static deprecated(name: string, version: string): GraphError {
    return new GraphError(12, `(#12) ${name} is deprecated for versions ${version} and higher`);
  }

  static appTokenRequired(): GraphError {
    return new GraphError(15, '(#15) This method must be called with an app access_token.');
  }

  static internal(): GraphError {
    return new GraphError(2, 'An unexpected error has occurred. Please retry your request later.', {
      status: 500,
      authenticate: null,
    });
  }
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The real service words expiry times as "Thursday, 09-Apr-15 15:00:00 PDT"; Loom speaks UTC. */
function sessionTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${WEEKDAYS[date.getUTCDay()]}, ${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-` +
    `${two(date.getUTCFullYear() % 100)} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:` +
    `${two(date.getUTCSeconds())} UTC`
  );
}

/**
 * Failures of the system under Loom (a file that is missing, a server that refuses the
 * connection) in words a person can act on, with the code to search for. Messages that name a
 * file, folder, database or URL add these words after its name.
 */
const WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'it exists already',
  ENAMETOOLONG: 'the name is too long',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection broke',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host',
};

/**
 * Why `error` happened, as "connection refused (ECONNREFUSED)": the innermost system code found
 * through its causes (fetch hides the socket's error in `cause`, a connection to a name with
 * several addresses in an AggregateError), else its message.
 */
export function describeSystemError(error: unknown): string {
  const code = systemCode(error);
  if (code !== undefined && WORDS[code] !== undefined) return `${WORDS[code]} (${code})`;
  const message = innermostMessage(error);
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}

/** The system error code of `error` or of what caused it, e.g. ENOENT or ECONNREFUSED. */
function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause;
  }
  return undefined;
}

function innermostMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; current instanceof Error && current.cause instanceof Error && depth < 5; depth += 1) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
