import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { latestVersion, migrate, migrations } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { pageQuery, type PageShape } from '../../src/store/sqlite/page-query.js';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-sqlite-store-'));
after(() => fs.rmSync(directory, { recursive: true, force: true }));

let fileCount = 0;
const freshPath = () => path.join(directory, `store-${++fileCount}.db`);

async function withStore<T>(file: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = openSqliteStore(file);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('SQLite store', () => {
  it('runs in WAL mode with fully synchronous commits', async () => {
    await withStore(freshPath(), async (store) => {
      assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(store.db.pragma('synchronous', { simple: true }), 2, 'synchronous=FULL');
      assert.equal(store.db.pragma('foreign_keys', { simple: true }), 1);
      assert.ok((store.db.pragma('busy_timeout', { simple: true }) as number) > 0);
    });
  });

  it('migrates a new file to the latest version and reopens it without migrating again', async () => {
    const file = freshPath();
    const schemaOf = (store: SqliteStore) =>
      store.db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();

    const { id, schema } = await withStore(file, async (store) => {
      assert.equal(store.db.pragma('user_version', { simple: true }), latestVersion);
      const { results } = await store.write([
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Kept' } } },
      ]);
      await store.setSetting('schema', 'test');
      return { id: results[0] as number, schema: schemaOf(store) };
    });

    await withStore(file, async (store) => {
      assert.equal(store.db.pragma('user_version', { simple: true }), latestVersion);
      assert.deepEqual(schemaOf(store), schema);
      assert.equal(migrate(store.db), latestVersion);
      assert.deepEqual((await store.getObjects([id])).get(id)?.data, { name: 'Kept' });
      assert.equal(await store.getSetting('schema'), 'test');
    });
  });

  it('gives apps registered before version 5 no redirect URIs', async () => {
    const file = freshPath();
    const raw = new Database(file);
    for (const migration of migrations.filter((step) => step.version <= 4)) raw.exec(migration.sql);
    raw.pragma('user_version = 4');
    raw.prepare(`INSERT INTO objects (id, type, owner, created_time, updated_time, data) VALUES (7, 'application', NULL, 1, 1, '{"name":"Old"}')`).run();
    raw.prepare("INSERT INTO apps (id, secret, id_key, require_proof, business_id, created_time) VALUES (7, 's', 'k', 0, NULL, 1)").run();
    raw.close();
    await withStore(file, async (store) => {
      assert.equal(store.db.pragma('user_version', { simple: true }), latestVersion);
      assert.deepEqual((await store.getApps([7])).get(7)?.redirectUris, []);
    });
  });

  it('refuses a file written by a newer schema version', () => {
    const file = freshPath();
    const raw = new Database(file);
    raw.pragma(`user_version = ${latestVersion + 1}`);
    raw.close();
    assert.throws(() => openSqliteStore(file), /schema version .* upgrade Loom/);
  });

  it('passes the integrity check after writes, deletes and app creation', async () => {
    await withStore(freshPath(), async (store) => {
      const app = await store.createApp({ name: 'Check', secret: 's', idKey: 'k', createdTime: 1 });
      const { results } = await store.write([
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: {} } },
        { op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: {} } },
      ]);
      const [user, post] = results as [number, number];
      await store.write([
        { op: 'addAssoc', type: 'posts', id1: user, id2: post, time: 1 },
        { op: 'addAssoc', type: 'likes', id1: post, id2: user, time: 2 },
        { op: 'deleteObject', id: post },
        { op: 'deleteObject', id: app.id },
      ]);
      assert.equal((await store.getApps([app.id])).size, 0, 'the apps row goes with its application object');
      assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(store.db.pragma('foreign_key_check'), []);
    });
  });

  it("finds a person's objects, grants, tokens and codes by index when deleting them", async () => {
    await withStore(freshPath(), async (store) => {
      const plans = [
        'SELECT id FROM objects WHERE owner = 1',
        'DELETE FROM grants WHERE user_id = 1',
        'DELETE FROM tokens WHERE user_id = 1',
        'DELETE FROM auth_codes WHERE user_id = 1',
      ].map((sql) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail).join('; '));
      for (const plan of plans) assert.match(plan, /USING (COVERING )?INDEX \w+_by_(owner|user)/, plan);
    });
  });

  it('reads every shape of page from the index alone, visiting no table', async () => {
    await withStore(freshPath(), async (store) => {
      const flags = ['after', 'before', 'since', 'until', 'granted', 'oldest'] as const;
      const numbered = ['id1', 'limit', 'afterTime', 'afterId2', 'beforeTime', 'beforeId2', 'since', 'until', 'grantAppId'];
      const everyParam = { ...Object.fromEntries(numbered.map((name) => [name, 1])), grantScope: 'public_profile' };
      for (let bits = 0; bits < 1 << flags.length; bits++) {
        const shape = Object.fromEntries(flags.map((flag, index) => [flag, (bits & (1 << index)) !== 0])) as unknown as PageShape;
        const { sql, names } = pageQuery(shape);
        const params: Record<string, number | string> = { ...everyParam, type: 'likes' };
        const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(names.map((name) => params[name])) as Array<{ detail: string }>;
        const plan = rows.map((row) => row.detail).join('; ');
        assert.match(plan, /SEARCH a USING COVERING INDEX associations_by_time/, `${JSON.stringify(shape)}: ${plan}`);
        assert.doesNotMatch(plan, /TEMP B-TREE/, `${JSON.stringify(shape)}: ${plan}`);
      }
    });
  });

  it("shows the objects and counts another connection changed at the next read, pages' objects too", async () => {
    const file = freshPath();
    await withStore(file, async (store) => {
      const { results } = await store.write([
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Ann' } } },
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Bob' } } },
      ]);
      const [ann, bob] = results as number[];
      await store.write([{ op: 'addAssoc', type: 'friends', id1: ann!, id2: bob!, time: 5 }]);
      const friendName = async () => (await store.getPagesWithObjects({ type: 'friends', id1s: [ann!], limit: 5 })).objects.get(bob!)?.data.name;
      // Read twice, so that the second read may take what the first one read.
      assert.equal(await friendName(), 'Bob');
      assert.equal(await friendName(), 'Bob');
      const friendCounts = async () => [...(await store.getCounts('friends', [ann!, bob!])).values()];
      assert.deepEqual(await friendCounts(), [1, 0]);
      assert.deepEqual(await friendCounts(), [1, 0]);
      await withStore(file, (other) =>
        other.write([
          { op: 'updateObject', id: bob!, data: { name: 'Robert' }, updatedTime: 2 },
          { op: 'addAssoc', type: 'friends', id1: bob!, id2: ann!, time: 6 },
        ]),
      );
      assert.equal(await friendName(), 'Robert');
      assert.equal((await store.getObjects([bob!])).get(bob!)?.data.name, 'Robert');
      assert.deepEqual(await friendCounts(), [1, 1]);
    });
  });

  it('reads its own writes inside a transaction it holds, before they are committed', async () => {
    await withStore(freshPath(), async (store) => {
      const { results } = await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Ann' } } }]);
      const ann = results[0] as number;
      const name = async () => (await store.getObjects([ann])).get(ann)?.data.name;
      assert.equal(await name(), 'Ann');
      assert.equal(await name(), 'Ann');
      await store.changeSchemaAlone(async () => {
        await store.write([{ op: 'updateObject', id: ann, data: { name: 'Anna' }, updatedTime: 2 }]);
        assert.equal(await name(), 'Anna', 'within the transaction');
      });
      assert.equal(await name(), 'Anna', 'once committed');
    });
  });

  it('never hands out the id of a deleted object again', async () => {
    await withStore(freshPath(), async (store) => {
      const create = () =>
        store.write([{ op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: {} } }]);
      const first = (await create()).results[0] as number;
      await store.write([{ op: 'deleteObject', id: first }]);
      const second = (await create()).results[0] as number;
      assert.ok(second > first);
    });
  });
});
