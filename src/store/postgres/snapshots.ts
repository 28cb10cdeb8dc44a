import { createHash } from 'node:crypto';
import type pg from 'pg';
import { quoteIdentifier } from './connection.js';
import { mediaKeyIndexes } from './media-keys.js';
import { checkSnapshotName, LIVE_SETTING_PREFIX, type SnapshotInfo } from '../snapshots.js';
import { isLogged, type Undone } from '../undo-log.js';
import { PostgresUndoLog } from './undo-log.js';

/**
 * PostgreSQL snapshots are schemas beside the store's own, each holding a copy of every table and
 * the id sequences' positions and naming itself in its comment, and marks in the undo log
 * (undo-log.ts). A restore goes back through the log when it reaches the mark, at the cost of what
 * was written since; otherwise it empties the store's tables and copies them back, in one
 * transaction either way. The state a server started with is a mark alone.
 */

interface SnapshotComment {
  of: string;
  name: string;
  createdTime: number;
}

/** Schema names are at most 63 bytes: the store's own name, cut, and a digest of the snapshot's. */
function snapshotSchema(schema: string, name: string): string {
  checkSnapshotName(name);
  return `${schema.slice(0, 40)}_snap_${createHash('sha256').update(`${schema}\n${name}`).digest('hex').slice(0, 12)}`;
}

async function dataTables(client: pg.ClientBase, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [schema],
  );
  // The tables the undo log keeps: not the full-text index, which the objects' trigger rebuilds
  // as they are copied back (what it indexes is the running schema's declaration).
  return rows.map((row) => row.name).filter(isLogged);
}

/** Tables in an order where each comes after the tables its foreign keys point at. */
async function insertOrder(client: pg.ClientBase, schema: string, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = $1`,
    [schema],
  );
  const unquote = (name: string) => name.replace(/^.*\./, '').replace(/^"|"$/g, '');
  const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set()]));
  for (const row of rows) if (unquote(row.child) !== unquote(row.parent)) parents.get(unquote(row.child))?.add(unquote(row.parent));
  const ordered: string[] = [];
  while (ordered.length < tables.length) {
    const ready = tables.filter((table) => !ordered.includes(table) && [...parents.get(table)!].every((parent) => ordered.includes(parent) || !parents.has(parent)));
    if (ready.length === 0) throw new Error('The tables reference each other in a cycle');
    ordered.push(...ready);
  }
  return ordered;
}

export async function saveSnapshot(client: pg.ClientBase, schema: string, name: string, createdTime: number): Promise<void> {
  const target = snapshotSchema(schema, name);
  const quoted = quoteIdentifier(target);
  // Servers started together each record the start state: saves of one name take turns.
  await lockSnapshot(client, target);
  // Marked first: writers then wait until the copy is whole, so it holds the marked state.
  await new PostgresUndoLog(client, schema).mark(name, true);
  await client.query(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
  await client.query(`CREATE SCHEMA ${quoted}`);
  for (const table of await dataTables(client, schema)) {
    await client.query(`CREATE TABLE ${quoted}.${quoteIdentifier(table)} AS TABLE ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`);
  }
  // Who points at a file is asked of snapshots too (a restore may bring it back): by index.
  for (const index of mediaKeyIndexes(target)) await client.query(index);
  await client.query(`CREATE TABLE ${quoted}.loom_sequences (name text PRIMARY KEY, last_value bigint NOT NULL, is_called boolean NOT NULL)`);
  const { rows } = await client.query<{ name: string }>(`SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = $1`, [schema]);
  for (const { name: sequence } of rows.filter((row) => isLogged(row.name))) {
    await client.query(
      `INSERT INTO ${quoted}.loom_sequences SELECT $1, last_value, is_called FROM ${quoteIdentifier(schema)}.${quoteIdentifier(sequence)}`,
      [sequence],
    );
  }
  const comment: SnapshotComment = { of: schema, name, createdTime };
  // COMMENT takes no parameters; the JSON's quotes are doubled into a literal.
  await client.query(`COMMENT ON SCHEMA ${quoted} IS '${JSON.stringify(comment).replace(/'/g, "''")}'`);
}

/** Marks the state as it is now under the name, without a copy (replacing any snapshot of that name). */
export async function markSnapshot(client: pg.ClientBase, schema: string, name: string): Promise<void> {
  await new PostgresUndoLog(client, schema).mark(name, false);
  await dropCopy(client, schema, name);
}

/** Undefined when there is no snapshot of that name. */
export async function restoreSnapshot(client: pg.ClientBase, schema: string, name: string): Promise<Undone | undefined> {
  return (await new PostgresUndoLog(client, schema).goBack(name)) ?? restoreCopy(client, schema, name);
}

async function restoreCopy(client: pg.ClientBase, schema: string, name: string): Promise<Undone | undefined> {
  const source = snapshotSchema(schema, name);
  await lockSnapshot(client, source);
  const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [source]);
  if (rowCount === 0) return undefined;
  const tables = await dataTables(client, schema);
  const own = (table: string) => `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
  const copy = (table: string) => `${quoteIdentifier(source)}.${quoteIdentifier(table)}`;
  const keep = (table: string) => (table === 'settings' ? ` WHERE key NOT LIKE '${LIVE_SETTING_PREFIX}%'` : '');
  // Row by row rather than TRUNCATE: every row written here is logged, so each mark stays one
  // the log reaches. Children first, for the references.
  for (const table of (await insertOrder(client, schema, tables)).reverse()) await client.query(`DELETE FROM ${own(table)}${keep(table)}`);
  for (const table of await insertOrder(client, schema, tables)) {
    await client.query(`INSERT INTO ${own(table)} SELECT * FROM ${copy(table)}${keep(table)}`);
  }
  const { rows } = await client.query<{ name: string; last_value: number; is_called: boolean }>(`SELECT * FROM ${quoteIdentifier(source)}.loom_sequences`);
  for (const row of rows) {
    await client.query('SELECT setval($1::regclass, $2, $3)', [`${quoteIdentifier(schema)}.${quoteIdentifier(row.name)}`, row.last_value, row.is_called]);
  }
  // From here on the log reaches the restored state, as from a save.
  await new PostgresUndoLog(client, schema).mark(name, true);
  return { mediaKeys: [] };
}

export async function listSnapshots(client: pg.ClientBase, schema: string): Promise<SnapshotInfo[]> {
  const snapshots = (await ownSnapshots(client, schema)).map(({ name, createdTime }) => ({ name, createdTime }));
  return snapshots.sort((a, b) => a.name.localeCompare(b.name));
}

/** The schemas that hold the store's snapshots now. */
export async function snapshotSchemas(client: pg.ClientBase | pg.Pool, schema: string): Promise<string[]> {
  return (await ownSnapshots(client, schema)).map((snapshot) => snapshot.schema);
}

async function ownSnapshots(client: pg.ClientBase | pg.Pool, schema: string): Promise<Array<SnapshotInfo & { schema: string }>> {
  const { rows } = await client.query<{ schema: string; comment: string | null }>(
    `SELECT nspname AS schema, obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace WHERE nspname LIKE $1`,
    [`${schema.slice(0, 40).replace(/[\\_%]/g, '\\$&')}\\_snap\\_%`],
  );
  const snapshots: Array<SnapshotInfo & { schema: string }> = [];
  for (const { schema: own, comment } of rows) {
    const parsed = comment ? (JSON.parse(comment) as SnapshotComment) : undefined;
    if (parsed?.of === schema) snapshots.push({ schema: own, name: parsed.name, createdTime: parsed.createdTime });
  }
  return snapshots;
}

export async function deleteSnapshot(client: pg.ClientBase, schema: string, name: string): Promise<boolean> {
  const copied = await dropCopy(client, schema, name);
  return (await new PostgresUndoLog(client, schema).forget(name)) || copied;
}

/** Drops the copy of a snapshot; answers whether there was one. */
async function dropCopy(client: pg.ClientBase, schema: string, name: string): Promise<boolean> {
  const target = snapshotSchema(schema, name);
  const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [target]);
  if (rowCount === 0) return false;
  await client.query(`DROP SCHEMA ${quoteIdentifier(target)} CASCADE`);
  return true;
}

/** Holds the snapshot's lock until the transaction ends, so no save or restore of it runs alongside. */
async function lockSnapshot(client: pg.ClientBase, snapshot: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [snapshot]);
}
