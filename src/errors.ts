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
  authenticate?: AuthenticateClass | null;
  /** Whether retrying the same call later may succeed (rate limits, outages): `is_transient` in the body. */
  transient?: boolean;
}

export class GraphError extends Error {
  readonly code: number;
  readonly type: GraphErrorType;
  readonly status: number;
  readonly subcode: number | undefined;
  readonly authenticate: AuthenticateClass | null;
  readonly transient: boolean | undefined;

  constructor(code: number, message: string, options: GraphErrorOptions = {}) {
    super(message);
    this.name = 'GraphError';
    this.code = code;
    this.type = options.type ?? 'OAuthException';
    this.status = options.status ?? 400;
    this.subcode = options.subcode;
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

  /** Subcode 33 is what clients' suites match on; the service has sent it in every version since 2016. */
  static objectNotFound(id: string, method: 'get' | 'post' | 'delete' = 'get'): GraphError {
    return new GraphError(
      100,
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      { type: 'GraphMethodException', subcode: 33 },
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
