/**
 * The hosts the intercept proxy answers for, and where a database keeps the authority that signs
 * their certificates. Apart from certificate-authority.ts, whose X.509 libraries (two hundred
 * modules, a fifth of a second) load only when a server intercepts or `loom ca` runs.
 */
import { basename, dirname, resolve } from 'node:path';

/** The hosts Graph API clients hard-code; the only names Loom's authority may ever vouch for. */
export const INTERCEPTED_HOSTS = ['graph.facebook.com', 'graph.beta.facebook.com', 'graph-video.facebook.com'] as const;

/** What a TLS server needs to answer for the intercepted hosts. */
export interface HostCredentials {
  /** PEM of the host certificate followed by the authority's. */
  cert: string;
  key: string;
}

/**
 * Where a database's authority lives: beside a SQLite file (`loom.db` → `loom.db-ca/`), or
 * `loom-ca/` in the working directory for a PostgreSQL URL, which has no folder of its own.
 */
export function authorityDirFor(db: string): string {
  if (/^postgres(ql)?:\/\//i.test(db)) return resolve('loom-ca');
  return resolve(dirname(db), `${basename(db)}-ca`);
}
