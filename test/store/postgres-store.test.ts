import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { AuthListener } from '../../src/store/postgres/auth-listener.js';
import { parsePostgresLocation } from '../../src/store/postgres/connection.js';
import { latestVersion } from '../../src/store/postgres/migrations.js';
import { openPostgresStore, PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SEQUENCE_ID_LIMIT } from '../../src/store/auth-store.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import type { ObjectId } from '../../src/ids.js';
import { scratchLocation, testPostgresUrl } from '../helpers/test-store.js';

describe('PostgreSQL store', { skip: testPostgresUrl === undefined && 'LOOM_TEST_PG is not set' }, () => {
  let admin: pg.Client;
  before(async () => {
    admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
  });
  after(() => admin.end());

  const schemaOf = (location: string) => new URL(location).searchParams.get('schema')!;

  async function withStores<T>(location: string, count: number, use: (stores: PostgresStore[]) => Promise<T>): Promise<T> {
    const stores = await Promise.all(Array.from({ length: count }, () => openPostgresStore(location)));
    try {
      return await use(stores);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  }

  it('migrates a new schema once when several processes open it at the same moment', async () => {
    const location = scratchLocation('postgres');
    await withStores(location, 4, async (stores) => {
      const { rows } = await stores[0]!.pool.query('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((row) => row.version), Array.from({ length: latestVersion }, (_, i) => i + 1));
      await stores[1]!.setSetting('kept', 'yes');
    });
    await withStores(location, 1, async ([store]) => {
      assert.equal(await store!.getSetting('kept'), 'yes', 'reopening migrates nothing away');
      const { rows } = await store!.pool.query('SELECT count(*) AS n FROM schema_migrations');
      assert.equal(rows[0].n, latestVersion);
    });
  });

  it('puts its tables in the schema the URL names, apart from every other schema', async () => {
    const [first, second] = [scratchLocation('postgres'), scratchLocation('postgres')];
    await withStores(first, 1, async ([a]) => {
      await withStores(second, 1, async ([b]) => {
        await a!.setSetting('where', 'first');
        assert.equal(await b!.getSetting('where'), undefined);
        const { rows } = await admin.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schemaOf(first)]);
        assert.deepEqual(
          rows.map((row) => row.table_name),
          ['apps', 'associations', 'auth_codes', 'call_counts', 'counts', 'credentials', 'declared_keys', 'deleted_apps', 'grants', 'objects', 'revoked_tokens', 'schema_migrations', 'schema_versions', 'search_documents', 'search_fields', 'settings', 'tokens',
            'webhook_changes', 'webhook_deliveries', 'webhook_subscriptions'],
        );
      });
    });
  });

  it('refuses a schema written by a newer version of Loom', async () => {
    const location = scratchLocation('postgres');
    await withStores(location, 1, async () => {});
    await admin.query(`INSERT INTO "${schemaOf(location)}".schema_migrations (version, description) VALUES ($1, 'from the future')`, [latestVersion + 1]);
    await assert.rejects(openPostgresStore(location), /schema version .* upgrade Loom/);
  });

  it('keeps counts exact and ids unique under concurrent writers on separate pools', async () => {
    await withStores(scratchLocation('postgres'), 3, async (stores) => {
      const create = (store: PostgresStore) =>
        store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: {} } }]).then(({ results }) => results[0] as ObjectId);
      const users = await Promise.all(Array.from({ length: 90 }, (_, i) => create(stores[i % 3]!)));
      assert.equal(new Set(users).size, users.length, 'ids never collide across pools');

      const [post, other] = await Promise.all([create(stores[0]!), create(stores[1]!)]);
      // Every user likes both posts twice, through different pools, with the two posts in
      // opposite orders half the time: rows are locked in both orders at once.
      const like = (user: ObjectId, posts: ObjectId[]): WriteOp[] =>
        posts.flatMap((target): WriteOp[] => [
          { op: 'addAssoc', type: 'likes', id1: target, id2: user, time: user },
          { op: 'addAssoc', type: 'liked', id1: user, id2: target, time: user },
        ]);
      await Promise.all(
        users.flatMap((user, i) => [
          stores[i % 3]!.write(like(user, i % 2 === 0 ? [post, other] : [other, post])),
          stores[(i + 1) % 3]!.write(like(user, [other, post])),
        ]),
      );
      assert.deepEqual(await stores[2]!.getCounts('likes', [post, other]), new Map([[post, 90], [other, 90]]));
      const liked = await stores[0]!.getCounts('liked', users);
      assert.ok([...liked.values()].every((count) => count === 2));

      // Half the users unlike one post while the other half like it again: counts stay exact.
      await Promise.all(
        users.map((user, i) =>
          stores[i % 3]!.write(
            i % 2 === 0
              ? [{ op: 'removeAssoc', type: 'likes', id1: post, id2: user }, { op: 'removeAssoc', type: 'liked', id1: user, id2: post }]
              : like(user, [post]),
          ),
        ),
      );
      assert.equal((await stores[1]!.getCounts('likes', [post])).get(post), 45);
      const { rows } = await stores[0]!.pool.query(`SELECT count(*) AS n FROM associations WHERE id1 = $1 AND type = 'likes'`, [post]);
      assert.equal(rows[0].n, 45);
    });
  });

  it('runs a write again when PostgreSQL ends it to break a deadlock', async () => {
    const location = scratchLocation('postgres');
    await withStores(location, 1, async ([store]) => {
      const { results } = await store!.write([
        { op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: {} } },
        { op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: {} } },
      ]);
      const [a, b] = results as [ObjectId, ObjectId];
      await store!.write([
        { op: 'addAssoc', type: 'likes', id1: a, id2: 1, time: 1 },
        { op: 'addAssoc', type: 'likes', id1: b, id2: 1, time: 1 },
      ]);
      const blocker = new pg.Client({ connectionString: testPostgresUrl });
      await blocker.connect();
      try {
        await blocker.query(`SET search_path = "${schemaOf(location)}"`);
        // Left to wait longer than the store, so the store's transaction is the one PostgreSQL ends.
        await blocker.query(`SET deadlock_timeout = '20s'`).catch(() => {});
        const lockCount = (id1: ObjectId) => blocker.query(`SELECT 1 FROM counts WHERE id1 = $1 AND type = 'likes' FOR UPDATE`, [id1]);
        await blocker.query('BEGIN');
        await lockCount(b);
        // The store locks a's count, then waits for b's.
        const writing = store!.write([
          { op: 'addAssoc', type: 'likes', id1: a, id2: 2, time: 2 },
          { op: 'addAssoc', type: 'likes', id1: b, id2: 2, time: 2 },
        ]);
        const pid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        for (let tries = 0; ; tries += 1) {
          const waiting = await admin.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [pid]);
          if (waiting.rowCount) break;
          assert.ok(tries < 200, 'the store never waited for the blocker');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // Now each waits for the other; the blocker gets a's lock only once the store's attempt is rolled back.
        await lockCount(a);
        await blocker.query('COMMIT');
        assert.deepEqual((await writing).results, [true, true]);
      } finally {
        await blocker.end();
      }
      assert.deepEqual(await store!.getCounts('likes', [a, b]), new Map([[a, 2], [b, 2]]));
    });
  });

  it('bulk loads by COPY whatever characters the records hold, as loadRecords loads them', async () => {
    await withStores(scratchLocation('postgres'), 1, async ([store]) => {
      const text = 'tab\there, new\nline, return\r, back\\slash \\N, quote " and ünïcode ✓';
      const [user, app] = [SEQUENCE_ID_LIMIT - 100, SEQUENCE_ID_LIMIT - 99];
      const token = { hash: 'c'.repeat(64), kind: 'user' as const, appId: app, userId: user, scopes: [text, 'email'], issuedAt: 1, expiresAt: 0 };
      await store!.bulkLoad(async (load) => {
        await load([
          { record: 'object', id: user, type: 'user', owner: null, createdTime: 5, updatedTime: 6, data: { name: text, nested: { list: [text, null, true] } } },
          { record: 'object', id: app, type: 'application', owner: user, createdTime: 5, updatedTime: 5, data: { name: 'App' } },
          { record: 'association', id1: user, type: 'friends', id2: app, time: 7, data: { note: text } },
          { record: 'association', id1: app, type: 'friends', id2: user, time: 7, data: null },
          { record: 'app', id: app, secret: text, idKey: 'key', idTag: 3, requireProof: true, businessId: null, createdTime: 5, redirectUris: ['https://loaded.example/cb'] },
          { record: 'token', ...token },
        ]);
      });
      assert.deepEqual((await store!.getObjects([user])).get(user)?.data, { name: text, nested: { list: [text, null, true] } });
      assert.equal((await store!.getObjects([app])).get(app)?.owner, user);
      const pages = await store!.getPages({ type: 'friends', id1s: [user, app], limit: 5 });
      assert.deepEqual(pages.get(user)?.[0]?.data, { note: text });
      assert.equal(pages.get(app)?.[0]?.data, null);
      assert.equal((await store!.getApps([app])).get(app)?.secret, text);
      assert.equal((await store!.getApps([app])).get(app)?.requireProof, true);
      assert.deepEqual(await store!.findToken(token.hash), token);
    });
  });

  it('keeps bigint ids as numbers and moves the sequence forwards only, never to a fixed id above it', async () => {
    await withStores(scratchLocation('postgres'), 1, async ([store]) => {
      // Above the sequence's range (fixed app ids live there): kept as a number, the sequence left alone.
      const high = 2 ** 52;
      const below = SEQUENCE_ID_LIMIT - 10;
      await store!.loadRecords([
        { record: 'object', id: below, type: 'user', owner: null, createdTime: 1, updatedTime: 1, data: {} },
        { record: 'object', id: high, type: 'application', owner: null, createdTime: 1, updatedTime: 1, data: {} },
      ]);
      assert.equal((await store!.getObjects([high])).get(high)?.id, high);
      const { results } = await store!.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: {} } }]);
      assert.equal(results[0], below + 1);
    });
  });

  it('closes at any moment, even while its auth listener is still connecting', async () => {
    const location = scratchLocation('postgres');
    await withStores(location, 1, async () => {});
    // A store closed just after it opened meets its listener here: connecting, not yet listening.
    const listener = new AuthListener(parsePostgresLocation(location));
    const started = listener.start().then(() => 'settled');
    const closed = listener.close().then(() => 'settled');
    const waited = new AbortController();
    const outcome = await Promise.race([
      Promise.all([started, closed]),
      sleep(10_000, 'still waiting after 10 s', { signal: waited.signal }).catch(() => 'no longer waiting'),
    ]);
    waited.abort();
    assert.deepEqual(outcome, ['settled', 'settled']);
    assert.notEqual(listener.current(), listener.current(), 'a closed listener hears nothing, so it never answers the same version twice');
  });

  it('goes back to a mark on a connection of its own, the same each time, and on a new one once it broke', async () => {
    const location = scratchLocation('postgres');
    await withStores(location, 1, async ([store]) => {
      const create = async () => (await store!.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: {} } }])).results[0] as ObjectId;
      // The connection that went back is the one whose last statement called this schema's undo_go_back.
      const goingBack = async () =>
        (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query LIKE $1', [`%"${schemaOf(location)}".undo_go_back%`])).rows.map((row) => row.pid);
      const wentBack = async () => {
        const id = await create();
        assert.ok(await store!.restoreSnapshot('mark'));
        assert.equal((await store!.getObjects([id])).size, 0, 'the write since the mark is undone');
      };
      await store!.markSnapshot('mark');
      await wentBack();
      const [first] = await goingBack();
      assert.ok(first !== undefined);
      // Writes in between take the pool's connections; going back again takes its own.
      await Promise.all(Array.from({ length: 8 }, create));
      await wentBack();
      assert.deepEqual(await goingBack(), [first]);

      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      for (let waited = 0; (await goingBack()).includes(first); waited += 10) {
        assert.ok(waited < 5000, 'the connection ends');
        await sleep(10);
      }
      await sleep(50);
      await wentBack();
      const [second] = await goingBack();
      assert.ok(second !== undefined && second !== first, 'a new connection went back');
    });
  });
});
