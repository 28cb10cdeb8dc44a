import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { searchSql as postgresSearchSql } from '../../src/store/postgres/search.js';
import { isPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { searchSql as sqliteSearchSql } from '../../src/store/sqlite/search.js';
import { isSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { SearchableType, SearchReindex } from '../../src/store/search.js';
import type { Store } from '../../src/store/store.js';
import type { ObjectId } from '../../src/ids.js';
import { openScratchStore, selectRows } from '../helpers/test-store.js';

const PAGES: SearchableType = { type: 'page', fields: ['name', 'category'], point: { latitude: 'location.latitude', longitude: 'location.longitude' } };
const PEOPLE: SearchableType = { type: 'user', fields: ['name'] };

async function create(store: Store, type: string, data: Record<string, unknown>): Promise<ObjectId> {
  const { results } = await store.write([{ op: 'createObject', object: { type, owner: null, createdTime: 1, data } }]);
  return results[0] as ObjectId;
}

const ids = (objects: ReadonlyArray<{ id: ObjectId }>) => objects.map((object) => object.id);

describe('full-text search in the store', () => {
  let store: Store;
  let beforeDeclaring: ObjectId;
  before(async () => {
    store = await openScratchStore();
    // Written before the type is declared, as in a database made before the index existed.
    beforeDeclaring = await create(store, 'page', { name: 'Harbour Coffee Roasters', category: 'Cafe' });
    await store.declareSearchable([PAGES, PEOPLE]);
  });
  after(() => store.close());

  it('indexes the objects stored before their type was declared (the backfill)', async () => {
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['harbour'], limit: 10 })), [beforeDeclaring]);
  });

  it('indexes each write in its own transaction: create, update and delete', async () => {
    const id = await create(store, 'page', { name: 'Lantern Books', category: 'Bookshop' });
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['lantern'], limit: 10 })), [id]);
    // Words match as prefixes, on any declared key, whatever their case.
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['BOOK', 'lant'], limit: 10 })), [id]);
    await store.write([{ op: 'updateObject', id, data: { name: 'Ember Books' }, updatedTime: 2 }]);
    assert.deepEqual(await store.search({ type: 'page', words: ['lantern'], limit: 10 }), []);
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['ember'], limit: 10 })), [id]);
    await store.write([{ op: 'deleteObject', id }]);
    assert.deepEqual(await store.search({ type: 'page', words: ['ember'], limit: 10 }), []);
  });

  it('matches words of any script and case, accents kept, alike on both stores', async () => {
    const id = await create(store, 'page', { name: 'Zoë Ångström Café', category: 'Кафе' });
    for (const words of [['zoë'], ['ång'], ['кафе'], ['café', 'zo']]) {
      assert.deepEqual(ids(await store.search({ type: 'page', words, limit: 10 })), [id], words.join(' '));
    }
    assert.deepEqual(await store.search({ type: 'page', words: ['zoe', 'angstrom'], limit: 10 }), []);
  });

  it('keeps types apart and leaves undeclared types out', async () => {
    const person = await create(store, 'user', { name: 'Harbour Smith' });
    await create(store, 'post', { name: 'Harbour walk' });
    assert.deepEqual(ids(await store.search({ type: 'user', words: ['harbour'], limit: 10 })), [person]);
    assert.deepEqual(await store.search({ type: 'post', words: ['harbour'], limit: 10 }), []);
  });

  it('pages by id, forwards and backwards', async () => {
    const made: ObjectId[] = [];
    for (let n = 0; n < 5; n++) made.push(await create(store, 'page', { name: `Quill Studio ${n}`, category: 'Studio' }));
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['quill'], limit: 2 })), made.slice(0, 2));
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['quill'], limit: 2, after: made[1] })), made.slice(2, 4));
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['quill'], limit: 2, before: made[4] })), made.slice(2, 4));
  });

  it('finds located objects within a distance of a centre', async () => {
    const near = await create(store, 'page', { name: 'Pier Bakery', location: { latitude: 37.7749, longitude: -122.4194 } });
    const far = await create(store, 'page', { name: 'Pier Diner', location: { latitude: 37.8049, longitude: -122.4194 } });
    await create(store, 'page', { name: 'Pier Fans' });
    // A position that is not a number is no position, and never fails the write.
    await create(store, 'page', { name: 'Pier Rumours', location: { latitude: 'north', longitude: { east: true } } });
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['pier'], limit: 10, located: true })), [near, far]);
    // About 3.3 km apart: 1 km keeps the near one only, 5 km both.
    const centre = { latitude: 37.775, longitude: -122.4195 };
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['pier'], limit: 10, near: { ...centre, meters: 1000 } })), [near]);
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['pier'], limit: 10, near: { ...centre, meters: 5000 } })), [near, far]);
  });

  it('keeps only people who granted the app a permission, when asked', async () => {
    const app = await store.createApp({ name: 'Finder', secret: 's', idKey: 'k', createdTime: 1 });
    const granted = await create(store, 'user', { name: 'Marlow Quince' });
    await create(store, 'user', { name: 'Marlow Reed' });
    await store.setGrants(app.id, [{ userId: granted, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
    const found = await store.search({ type: 'user', words: ['marlow'], limit: 10, grantedTo: { appId: app.id, scope: 'public_profile' } });
    assert.deepEqual(ids(found), [granted]);
  });

  it('reindexes a type whose declaration changed', async () => {
    const id = await create(store, 'page', { name: 'Gull Hall', category: 'Concert venue' });
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['concert'], limit: 10 })), [id]);
    await store.declareSearchable([{ ...PAGES, fields: ['name'] }, PEOPLE]);
    assert.deepEqual(await store.search({ type: 'page', words: ['concert'], limit: 10 }), []);
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['gull'], limit: 10 })), [id]);
    await store.declareSearchable([PAGES, PEOPLE]);
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['concert'], limit: 10 })), [id]);
  });

  it('answers from the full-text index, never a scan of the objects', async () => {
    // Located near a centre, from a position: the place search's statement. People's searches
    // add a grant test, which may start from the app's grants instead, by index too.
    for (const shape of [{ positioned: true, located: true, near: true }, { positioned: true, granted: true }]) {
      const plan = await planOf(store, shape);
      if (!shape.granted) assert.match(plan, isSqliteStore(store) ? /SCAN s VIRTUAL TABLE INDEX/ : /Bitmap Index Scan on search_documents_words/);
      assert.doesNotMatch(plan, /Seq Scan|SCAN o\b|SCAN g\b/);
    }
  });

  it('refuses a request without words rather than listing everything', async () => {
    await assert.rejects(() => store.search({ type: 'page', words: [], limit: 5 }), /words/);
    await assert.rejects(() => store.search({ type: 'page', words: ['a"b'], limit: 5 }), /words/);
  });

  it('keeps the index through a snapshot restore', async () => {
    const id = await create(store, 'page', { name: 'Tidewater Gallery' });
    await store.saveSnapshot('search-test', 1);
    await store.write([{ op: 'deleteObject', id }]);
    assert.deepEqual(await store.search({ type: 'page', words: ['tidewater'], limit: 5 }), []);
    assert.ok(await store.restoreSnapshot('search-test'));
    assert.deepEqual(ids(await store.search({ type: 'page', words: ['tidewater'], limit: 5 })), [id]);
    const [row] = await selectRows<{ n: number }>(store, 'SELECT count(*) AS n FROM search_fields');
    assert.ok(Number(row!.n) > 0);
  });
});

describe('reindexing for search after the declaration changed', () => {
  let store: Store;
  const told: SearchReindex[] = [];
  const tell = (reindex: SearchReindex) => void told.push(reindex);
  before(async () => {
    store = await openScratchStore();
    // Nothing stored: nothing to say.
    await store.declareSearchable([PAGES], tell);
    assert.deepEqual(told, []);
    await create(store, 'page', { name: 'Cormorant Hall', category: 'Venue' });
    // Written before their types were declared, as by a seed or an import.
    for (const name of ['Wren Cormorant', 'Ash Cormorant']) await create(store, 'user', { name });
    await create(store, 'post', { name: 'Cormorant' });
  });
  after(() => store.close());

  it('says, before it starts, how many objects of which types it indexes: every changed type together', async () => {
    await store.declareSearchable([{ ...PAGES, fields: ['name'] }, PEOPLE, { type: 'group', fields: ['name'] }], tell);
    // One reindex of both types that have objects; the group type has none.
    assert.deepEqual(told.splice(0), [{ types: ['page', 'user'], objects: 3 }]);
    assert.equal((await store.search({ type: 'user', words: ['cormorant'], limit: 10 })).length, 2);
    assert.equal((await store.search({ type: 'page', words: ['cormorant'], limit: 10 })).length, 1);
    assert.deepEqual(await store.search({ type: 'page', words: ['venue'], limit: 10 }), []);
  });

  it('says nothing when the declaration is the one the database holds', async () => {
    await store.declareSearchable([{ ...PAGES, fields: ['name'] }, PEOPLE, { type: 'group', fields: ['name'] }], tell);
    assert.deepEqual(told, []);
  });

  it('drops a type no longer declared without counting it', async () => {
    await store.declareSearchable([{ ...PAGES, fields: ['name'] }], tell);
    assert.deepEqual(told, []);
    assert.deepEqual(await store.search({ type: 'user', words: ['cormorant'], limit: 10 }), []);
  });
});

/** The plan the store's database makes for the statement of one shape of search. */
async function planOf(store: Store, shape: { positioned?: boolean; located?: boolean; near?: boolean; granted?: boolean }): Promise<string> {
  if (isSqliteStore(store)) {
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${sqliteSearchSql(shape)}`).all({
      match: '"pier"*', kind: 'page', limit: 5, position: 0, latitude: 0, longitude: 0, ky: 1, kx: 1, squared: 1, app: 1, scope: 'x',
    }) as Array<{ detail: string }>;
    return plan.map((row) => row.detail).join('\n');
  }
  if (!isPostgresStore(store)) throw new Error('planOf needs a SQLite or PostgreSQL store');
  const values: unknown[] = ['pier:*', 'page', 5];
  if (shape.positioned) values.push(0);
  if (shape.near) values.push(0, 0, 1, 1, 1);
  if (shape.granted) values.push(1, 'x');
  const client = await store.pool.connect();
  try {
    // With sequential scans priced out, a plan that cannot use an index still shows one.
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${postgresSearchSql(shape)}`, values });
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}
