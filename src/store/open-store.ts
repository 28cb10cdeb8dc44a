import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/**
 * Opens the store named by a location: a `postgres://` (or `postgresql://`) URL, or else the
 * path of a SQLite file, created on first use.
 */
export function openStore(location: string): Store {
  if (/^postgres(ql)?:\/\//i.test(location)) {
    throw new Error(
      `Cannot open ${redactPassword(location)}: PostgreSQL support is not built yet; give a SQLite file path instead.`,
    );
  }
  return openSqliteStore(location);
}

/** Error messages end up in logs, so a password in the URL is not repeated there. */
function redactPassword(url: string): string {
  return url.replace(/^([^:]+:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
