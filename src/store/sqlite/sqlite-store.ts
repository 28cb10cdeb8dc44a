import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import type { Store } from '../store.js';
import { sqliteAdminStore } from './admin-store.js';
import { sqliteAuthStore } from './auth-store.js';
import { SqliteDatabase } from './database.js';
import { sqliteGraphStore } from './graph-store.js';
import { migrate } from './migrations.js';
import { sqliteOpenProblem } from './open-problem.js';
import { sqliteRecordStore } from './records.js';

/** How long a statement waits for another process's write lock before failing. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating and migrating if needed) the SQLite database at `path`. WAL lets readers run
 * beside the writer; synchronous=FULL makes every acknowledged write survive a crash or power
 * loss, not just a killed process.
 */
export function openSqliteStore(path: string): SqliteStore {
  try {
    return openAndMigrate(path);
  } catch (error) {
    throw new Error(`cannot open the SQLite database ${path}: ${sqliteOpenProblem(path, error)}`, { cause: error });
  }
}

function openAndMigrate(path: string): SqliteStore {
  createPrivately(path);
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // A row that INSERT OR REPLACE replaces fires its delete triggers, so the undo log keeps it.
    db.pragma('recursive_triggers = ON');
    migrate(db);
    return sqliteStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The database holds password hashes, app secrets and the server's keys, so a new file is
 * readable by its owner only. SQLite gives the -wal and -shm files the mode of the database
 * file, so creating the file first (empty, which SQLite takes as a new database) covers all three.
 */
function createPrivately(path: string): void {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    // An existing file keeps its mode; a missing directory is reported by SQLite as usual.
    if (!['EEXIST', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

/** The SQLite store, with its connection for diagnostics and tests (everything else goes through Store). */
export type SqliteStore = Store & { readonly db: Database.Database };

/** Whether the store is a SQLite one, whose connection tests and diagnostics may reach. */
export function isSqliteStore(store: Store): store is SqliteStore {
  return 'db' in store;
}

/** The store on a migrated connection: each of its roles on the one connection they share. */
function sqliteStore(db: Database.Database): SqliteStore {
  const database = new SqliteDatabase(db);
  return {
    db,
    ...sqliteGraphStore(database),
    ...sqliteAuthStore(database),
    ...sqliteAdminStore(database),
    ...sqliteRecordStore(db),
    webhooks: database.webhooks,
    async close() {
      database.commits.close();
      if (db.open) db.close();
    },
  };
}
