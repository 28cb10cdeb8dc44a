import { randomBytes } from 'node:crypto';
import { DATABASE_ID_SETTING } from './snapshots.js';
import type { Store } from './store.js';

/**
 * The database's own identity: a random id made on first use, which names it to what it keeps
 * outside itself (its media folder says whose it is). A live setting, so a restore of a snapshot
 * taken before the id existed keeps it; never exported, so a copy made by import is a database
 * of its own. Made now if it has none; processes starting together agree on one through the store.
 */
export function databaseIdOf(store: Store): Promise<string> {
  return store.initSetting(DATABASE_ID_SETTING, randomBytes(16).toString('hex'));
}
