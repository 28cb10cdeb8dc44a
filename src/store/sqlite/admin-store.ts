import type { AdminStore, StoreVersions } from '../admin-store.js';
import { schemaVersionOf } from '../rows.js';
import { SqliteCallCounts } from './call-counts.js';
import type { SqliteDatabase } from './database.js';
import { findMediaKeys } from './media-keys.js';
import { SqliteSnapshots } from './snapshots.js';

/** The installation around the graph on SQLite: settings, schema versions, the change channel, call counts, snapshots and media keys. */
export function sqliteAdminStore(database: SqliteDatabase): AdminStore {
  const { db, statements, commits } = database;
  const callCounts = new SqliteCallCounts(db);
  const snapshots = new SqliteSnapshots(db);
  /** What versions() read last. */
  let lastVersions: StoreVersions = { auth: 0 };
  /** The commits' generation versions() read them under: none yet, so the first call reads them. */
  let readUnder: number | undefined;

  return {
    async getSetting(key) {
      return statements.selectSetting.get(key)?.value;
    },

    async setSetting(key, value) {
      statements.upsertSetting.run(key, value);
    },

    async initSetting(key, value) {
      return statements.insertSettingIfAbsent.get(key, value)?.value ?? statements.selectSetting.get(key)!.value;
    },

    async latestSchemaVersion() {
      const row = statements.selectLatestSchemaVersion.get();
      return row && schemaVersionOf(row);
    },

    async recordSchemaVersion(record) {
      const row = statements.insertSchemaVersion.get(record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime)!;
      return schemaVersionOf(row);
    },

    async changeSchemaAlone(work) {
      // Immediate: the write lock is taken before the latest version is read, so a second apply
      // waits here (up to the busy timeout) rather than building on a version about to be superseded.
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },

    async versions() {
      // Nothing committed anywhere since the last read: the versions read then still hold.
      const generation = commits.generation();
      if (generation === readUnder) return lastVersions;
      readUnder = generation;
      // The auth tables' triggers move it on in the transaction of each change, made by any
      // process. (Read after the generation, it is never older than the generation it is kept with.)
      lastVersions = { auth: statements.selectAuthVersion.get()! };
      return lastVersions;
    },

    async countCalls(subjects, minute, since) {
      return callCounts.countCalls(subjects, minute, since);
    },

    async countAppUsers(appId) {
      return callCounts.countAppUsers(appId);
    },

    async saveSnapshot(name, createdTime) {
      snapshots.save(name, createdTime);
    },

    async markSnapshot(name) {
      snapshots.mark(name);
    },

    async restoreSnapshot(name) {
      return snapshots.restore(name);
    },

    async listSnapshots() {
      return snapshots.list();
    },

    async deleteSnapshot(name) {
      return snapshots.delete(name);
    },

    async findMediaKeys(keys) {
      return new Set([...findMediaKeys(db, snapshots.files(), keys), ...snapshots.findLoggedMediaKeys(keys)]);
    },
  };
}
