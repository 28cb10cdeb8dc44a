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
export function systemCode(error: unknown): string | undefined {
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
