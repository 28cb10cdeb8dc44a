import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrations as postgresMigrations } from '../../src/store/postgres/migrations.js';
import { migrations as sqliteMigrations } from '../../src/store/sqlite/migrations.js';
import type { Store } from '../../src/store/store.js';
import { openLocation, scratchLocation, testPostgresUrl, testStoreKind } from '../helpers/test-store.js';
import { startServer } from '../helpers/server.js';

/** The last schema version before the full-text index. */
const BEFORE_SEARCH = 9;
const PAGE = { name: 'Driftwood Cafe', category: 'Coffee Shop', location: { city: 'Cork', latitude: 51.8985, longitude: -8.4756 } };

/**
 * A store as an older Loom left it: the schema up to version 9, holding a page written then,
 * by plain SQL since today's code would migrate first.
 */
async function olderDatabase(location: string): Promise<void> {
  if (testStoreKind === 'sqlite') {
    const db = new Database(location);
    for (const migration of sqliteMigrations.slice(0, BEFORE_SEARCH)) db.exec(migration.sql);
    db.pragma(`user_version = ${BEFORE_SEARCH}`);
    db.prepare(`INSERT INTO objects (type, owner, created_time, updated_time, data) VALUES ('page', NULL, 1, 1, ?)`).run(JSON.stringify(PAGE));
    db.close();
    return;
  }
  const schema = new URL(location).searchParams.get('schema')!;
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`SET search_path = "${schema}"`);
    await client.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const migration of postgresMigrations.slice(0, BEFORE_SEARCH)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [migration.version, migration.description]);
    }
    await client.query(`INSERT INTO objects (type, owner, created_time, updated_time, data) VALUES ('page', NULL, 1, 1, $1)`, [JSON.stringify(PAGE)]);
  } finally {
    await client.end();
  }
}

describe('a database made before the full-text index', () => {
  let store: Store | undefined;
  after(() => store?.close());

  it('gets its index built from the objects it holds, and its pages are found over HTTP', async () => {
    const location = scratchLocation();
    await olderDatabase(location);
    store = await openLocation(location);
    const app = await store.createApp({ name: 'Old App', secret: 'secret', idKey: randomBytes(16).toString('hex'), createdTime: 1 });
    const server = await startServer(store);
    try {
      const reply = await server.get('/v2.4/search', { access_token: `${app.id}|secret`, q: 'driftwood', type: 'place', center: '51.9,-8.47', distance: '2000', fields: 'name,category' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body.data.map((page: { name: string; category: string }) => [page.name, page.category]), [['Driftwood Cafe', 'Coffee Shop']]);
    } finally {
      await server.close();
    }
  });
});
