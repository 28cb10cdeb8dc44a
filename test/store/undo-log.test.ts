/**
 * The undo log behind snapshots and reset, through the store's own methods on each database: a
 * restore that undoes what was written since its mark, marks that stay reachable whatever was gone
 * back to, the copy a snapshot falls back on, and no log once nothing is marked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ObjectId } from '../../src/ids.js';
import { isPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { eventually } from '../helpers/patience.js';
import { storeTables, tableDifferences } from '../helpers/store-tables.js';
import { openScratchStore, selectRows } from '../helpers/test-store.js';

describe('the undo log', () => {
  let store: Store;
  let person: ObjectId;
  before(async () => {
    store = await openScratchStore();
    person = await create('user', { name: 'Ada Lovelace' });
  });
  after(() => store.close());

  async function create(type: string, data: Record<string, unknown>): Promise<ObjectId> {
    const { results } = await store.write([{ op: 'createObject', object: { type, owner: null, createdTime: 1, data } }]);
    return results[0] as ObjectId;
  }

  /** Writes to objects, associations and counts, the auth tables and the settings. */
  async function writeSome(label: string): Promise<ObjectId> {
    const post = await create('post', { message: label, image: { key: `${label}-image` } });
    await store.write([
      { op: 'addAssoc', id1: person, type: 'feed', id2: post, time: 2 },
      { op: 'updateObject', id: person, data: { name: `Ada ${label}` }, updatedTime: 3 },
    ]);
    const app = await store.createApp({ name: label, secret: `${label}-secret-0123456789`, idKey: `${label}-key`, createdTime: 4 });
    await store.setSetting(`label.${label}`, label);
    return app.id;
  }

  /** The log's tables, triggers and functions. */
  const logParts = async () =>
    isPostgresStore(store)
      ? selectRows(
          store,
          `SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname LIKE 'undo%'
           UNION ALL SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = current_schema()::regnamespace AND t.tgname LIKE 'undo%'
           UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'undo%'`,
        )
      : selectRows(store, `SELECT name FROM sqlite_master WHERE name LIKE 'undo%'`);

  it('goes back to a mark, rows, ids and settings, and the live settings stay', async () => {
    await store.markSnapshot('.start');
    const start = await storeTables(store);
    const app = await writeSome('first');
    await store.setSetting('live.shared', 'kept');
    await store.write([{ op: 'deleteObject', id: app }]);
    assert.notDeepEqual(await storeTables(store), start);

    const undone = await store.restoreSnapshot('.start');
    assert.ok(undone);
    assert.deepEqual(tableDifferences(await storeTables(store), start), {});
    assert.equal(await store.getSetting('live.shared'), 'kept');
    // The same ids are handed out again.
    await writeSome('again');
    await store.restoreSnapshot('.start');
    assert.deepEqual(tableDifferences(await storeTables(store), start), {});
  });

  it('moves the auth version when a restore takes an app back', async () => {
    await store.markSnapshot('auth');
    await store.createApp({ name: 'Gone again', secret: 'gone-again-secret-0123456789', idKey: 'gone-again-key', createdTime: 5 });
    const before = (await store.versions()).auth;
    assert.ok(await store.restoreSnapshot('auth'));
    // The apps table's triggers see the undo as any write: a cache keyed by the version drops the app.
    await eventually(async () => (await store.versions()).auth !== before, 'a new auth version');
    assert.ok(await store.deleteSnapshot('auth'));
  });

  it('logs nothing for grants given again as they already are', async () => {
    await store.markSnapshot('grants');
    const app = await store.createApp({ name: 'Grants', secret: 'grants-secret-0123456789', idKey: 'grants-key', createdTime: 6 });
    const given = [{ scope: 'public_profile', status: 'granted' as const }, { scope: 'user_posts', status: 'declined' as const }];
    await store.updateGrants(app.id, person, given);
    const logged = async () => Number((await selectRows<{ n: number | string }>(store, 'SELECT count(*) AS n FROM undo_log'))[0]!.n);
    const afterFirst = await logged();
    await store.updateGrants(app.id, person, given);
    await store.updateGrants(app.id, person, [{ scope: 'user_posts', status: 'declined' }], { onlyExisting: true });
    assert.equal(await logged(), afterFirst);
    // A change is still a change.
    await store.updateGrants(app.id, person, [{ scope: 'user_posts', status: 'granted' }]);
    assert.ok((await logged()) > afterFirst);
    assert.deepEqual((await store.getGrants(app.id, [person])).get(person)?.find((grant) => grant.scope === 'user_posts')?.status, 'granted');
    assert.ok(await store.restoreSnapshot('grants'));
    assert.ok(await store.deleteSnapshot('grants'));
  });

  it('keeps every mark reachable: a snapshot taken later is restored after going back before it', async () => {
    const start = await storeTables(store);
    await writeSome('before-snapshot');
    await store.saveSnapshot('later', 5);
    const later = await storeTables(store);
    await writeSome('after-snapshot');
    assert.ok(await store.restoreSnapshot('.start'));
    assert.deepEqual(tableDifferences(await storeTables(store), start), {});
    await writeSome('after-reset');
    assert.ok(await store.restoreSnapshot('later'));
    assert.deepEqual(tableDifferences(await storeTables(store), later), {});
    assert.ok(await store.restoreSnapshot('.start'));
    assert.deepEqual(tableDifferences(await storeTables(store), start), {});
    assert.equal(await store.deleteSnapshot('later'), true);
  });

  it('keeps every earlier mark reachable after going back to the last one, more than once', async () => {
    const start = await storeTables(store);
    await writeSome('before-last');
    await store.saveSnapshot('last', 6);
    const last = await storeTables(store);
    for (const round of ['first', 'second']) {
      await writeSome(`after-last-${round}`);
      assert.ok(await store.restoreSnapshot('last'));
      assert.deepEqual(tableDifferences(await storeTables(store), last), {});
    }
    await writeSome('before-start');
    assert.ok(await store.restoreSnapshot('.start'));
    assert.deepEqual(tableDifferences(await storeTables(store), start), {});
    assert.ok(await store.restoreSnapshot('last'), 'a mark after the one gone back to is still reachable');
    assert.deepEqual(tableDifferences(await storeTables(store), last), {});
    assert.equal(await store.deleteSnapshot('last'), true);
  });

  it('names the files of rows a mark may bring back, and of the rows a restore removed', async () => {
    const id = await create('post', { message: 'in the start state', image: { key: 'in-the-start-state' } });
    await store.markSnapshot('.start');
    await store.write([{ op: 'deleteObject', id }]);
    assert.deepEqual([...(await store.findMediaKeys(['in-the-start-state']))], ['in-the-start-state'], 'a reset brings the row back');
    await create('post', { message: 'written since', image: { key: 'written-since' } });
    const undone = await store.restoreSnapshot('.start');
    assert.deepEqual(undone?.mediaKeys, ['written-since']);
    assert.deepEqual([...(await store.findMediaKeys(['written-since', 'in-the-start-state']))], ['in-the-start-state']);
  });

  it('restores a snapshot the log no longer reaches from its copy, and marks it from there', async () => {
    await store.saveSnapshot('copied', 6);
    const copied = await storeTables(store);
    await writeSome('unmarked');
    // As a snapshot saved before the log existed: a copy and no mark.
    await selectRows(store, `DELETE FROM undo_marks WHERE name = 'copied' RETURNING name`);
    assert.ok(await store.restoreSnapshot('copied'));
    assert.deepEqual(tableDifferences(await storeTables(store), copied), {});
    assert.equal((await selectRows(store, `SELECT 1 FROM undo_marks WHERE name = 'copied'`)).length, 1);
    assert.equal(await store.deleteSnapshot('copied'), true);
    assert.equal(await store.restoreSnapshot('copied'), undefined);
  });

  it('stops logging once nothing is marked: no log, no triggers', async () => {
    assert.ok((await logParts()).length > 0);
    assert.equal(await store.deleteSnapshot('.start'), true);
    assert.deepEqual(await logParts(), []);
    await writeSome('unlogged');
    assert.equal(await store.restoreSnapshot('.start'), undefined);
  });

  it('drops a log written under another layout: a mark alone is lost, a snapshot comes back from its copy', async () => {
    await store.saveSnapshot('layout', 7);
    const copied = await storeTables(store);
    await store.markSnapshot('layout-mark');
    await writeSome('layout');
    // As a log started before the store's tables were migrated.
    await selectRows(store, `UPDATE undo_state SET format = 'older' RETURNING format`);
    assert.equal(await store.restoreSnapshot('layout-mark'), undefined);
    assert.deepEqual(await logParts(), []);
    assert.ok(await store.restoreSnapshot('layout'));
    assert.deepEqual(tableDifferences(await storeTables(store), copied), {});
    assert.equal(await store.deleteSnapshot('layout'), true);
  });
});
