import { existsSync } from 'node:fs';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import type { Store } from '../store/store.js';
import { UsageError } from './args.js';

/**
 * Opens the store of a command that only reads or changes what is there (token, export, app
 * list, app reset-secret): a mistyped SQLite path is refused instead of leaving an empty new
 * file behind. A PostgreSQL URL names a server, which answers for itself.
 */
export function openExistingStore(location: string): Store {
  if (!/^postgres(ql)?:\/\//i.test(location) && !existsSync(location)) {
    throw new UsageError(`there is no database at ${redactPassword(location)}; give --db the path of one, or run "loom serve" or "loom seed" to make it`);
  }
  return openStore(location);
}
