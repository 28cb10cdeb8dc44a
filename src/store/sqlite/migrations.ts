import type Database from 'better-sqlite3';
import { migrationsOf, type Migration } from '../migration-steps.js';

/** The steps of the schema as SQLite takes them; `PRAGMA user_version` holds the last one applied. */
export const migrations: readonly Migration[] = migrationsOf('sqlite');

export const latestVersion = migrations.length;

/**
 * Brings the database up to the latest version. Each step runs in its own immediate transaction
 * that re-reads the version first, so two processes opening a fresh file at once cannot both
 * apply the same step. Returns the version the database ends at.
 */
export function migrate(db: Database.Database): number {
  const current = userVersion(db);
  if (current > latestVersion) {
    throw new Error(
      `The database is at schema version ${current} but this Loom only knows versions up to ${latestVersion}; upgrade Loom to open it.`,
    );
  }
  for (const migration of migrations.slice(current)) {
    const apply = db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      // PRAGMA takes no bound parameters; the version is an integer from the list above.
      db.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
  return userVersion(db);
}

function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
