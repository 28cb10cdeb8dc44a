import type pg from 'pg';
import { migrationsOf, type Migration } from '../migration-steps.js';
import { quoteIdentifier } from './connection.js';

/** The steps of the schema as PostgreSQL takes them; schema_migrations records each one applied. */
export const migrations: readonly Migration[] = migrationsOf('postgres');

export const latestVersion = migrations.length;

/** First key of the two-key advisory lock that guards migrations ("loom" in ASCII). */
const MIGRATION_LOCK = 0x6c6f6f6d;

/**
 * Brings the schema up to the latest version in one transaction. A transaction-scoped advisory
 * lock, keyed by the schema's name, makes processes that start at once take turns: the first
 * migrates, the others then find nothing left to do. DDL is transactional in PostgreSQL, so a
 * failed step leaves the schema as it was. Returns the version the schema ends at.
 */
export async function migrate(client: pg.ClientBase, schema: string): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema]);
    // Creating only when missing: CREATE SCHEMA needs a privilege on the database even when the
    // schema exists, which a deployment's role may rightly lack.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        description text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const current = await schemaVersion(client);
    if (current > latestVersion) {
      throw new Error(
        `The database is at schema version ${current} but this Loom only knows versions up to ${latestVersion}; upgrade Loom to open it.`,
      );
    }
    for (const migration of migrations.slice(current)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  return schemaVersion(client);
}

async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return rows[0]?.version ?? 0;
}
