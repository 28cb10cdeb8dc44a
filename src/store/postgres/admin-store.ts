import { pgDriver } from './pg-driver.js';
import type { AdminStore } from '../admin-store.js';
import { schemaVersionOf, type SchemaVersionRow } from '../rows.js';
import { LIVE_SETTING_PREFIX } from '../snapshots.js';
import { countAppUsers, countCalls } from './call-counts.js';
import type { PostgresDatabase } from './database.js';
import { findMediaKeys } from './media-keys.js';
import { deleteSnapshot, listSnapshots, markSnapshot, restoreSnapshot, saveSnapshot, snapshotSchemas } from './snapshots.js';
import { findLoggedMediaKeys, goBackAtOnce } from './undo-log.js';
import { statements } from './statements.js';

/** First key of the two-key advisory lock that schema applies take turns on ("decl" in ASCII). */
const SCHEMA_CHANGE_LOCK = 0x6465636c;

/** The installation around the graph on PostgreSQL: settings, schema versions, the change channel, call counts, snapshots and media keys. */
export function postgresAdminStore(database: PostgresDatabase): AdminStore {
  const { schema } = database;

  async function getSetting(key: string): Promise<string | undefined> {
    const [row] = await database.rows<{ value: string }>(statements.selectSetting, [key]);
    return row?.value;
  }

  return {
    getSetting,

    async setSetting(key, value) {
      const write = database.rows(statements.upsertSetting, [key, value]);
      // A live setting moves the auth version, here and (by its trigger) in every other process.
      await (key.startsWith(LIVE_SETTING_PREFIX) ? database.afterAuthChange(write) : write);
    },

    async initSetting(key, value) {
      const [inserted] = await database.rows<{ value: string }>(statements.insertSettingIfAbsent, [key, value]);
      // When another writer got there first, its committed value is what this separate read sees.
      return inserted?.value ?? (await getSetting(key))!;
    },

    async latestSchemaVersion() {
      const [row] = await database.rows<SchemaVersionRow>(statements.selectLatestSchemaVersion, []);
      return row && schemaVersionOf(row);
    },

    async recordSchemaVersion(record) {
      // A new version moves the auth version, here at once and (by its trigger) in every other process.
      const [row] = await database.afterAuthChange(
        database.rows<SchemaVersionRow>(statements.insertSchemaVersion, [
          record.name, record.hash, record.text, record.storage, record.source, record.appId, record.appliedTime,
        ]),
      );
      return schemaVersionOf(row!);
    },

    async changeSchemaAlone(work) {
      await database.ready;
      // A connection of its own holds the lock, so the work may use every connection of the pool.
      const client = new (pgDriver().Client)({ connectionString: database.location.connectionString, application_name: 'loom-schema-apply' });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SCHEMA_CHANGE_LOCK, schema]);
        const result = await work();
        await client.query('COMMIT');
        return result;
      } finally {
        // Ending the connection ends its transaction and so releases the lock, whatever happened.
        await client.end();
      }
    },

    async versions() {
      await database.ready;
      return { auth: database.authListener.current() };
    },

    async countCalls(subjects, minute, since) {
      return database.transaction((client) => countCalls(client, subjects, minute, since));
    },

    async countAppUsers(appId) {
      await database.ready;
      return countAppUsers(database.pool, appId);
    },

    async saveSnapshot(name, createdTime) {
      await database.transaction((client) => saveSnapshot(client, schema, name, createdTime));
    },

    async markSnapshot(name) {
      await database.transaction((client) => markSnapshot(client, schema, name));
    },

    async restoreSnapshot(name) {
      // Most often the log reaches the mark, and going back takes one round trip; else a transaction finds the way.
      await database.ready;
      return (await goBackAtOnce(database.goBackConnection(), schema, name)) ?? database.transaction((client) => restoreSnapshot(client, schema, name));
    },

    async listSnapshots() {
      await database.ready;
      const client = await database.pool.connect();
      try {
        return await listSnapshots(client, schema);
      } finally {
        client.release();
      }
    },

    async deleteSnapshot(name) {
      return database.transaction((client) => deleteSnapshot(client, schema, name));
    },

    async findMediaKeys(keys) {
      await database.ready;
      const found = await findMediaKeys(database.pool, schema, await snapshotSchemas(database.pool, schema), keys);
      return new Set([...found, ...(await findLoggedMediaKeys(database.pool, schema, keys))]);
    },
  };
}
