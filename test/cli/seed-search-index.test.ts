import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { loom, startServe } from '../helpers/cli.js';
import { openLocation, scratchLocation, selectRows, testStoreKind } from '../helpers/test-store.js';

const REINDEX_LINE = /indexing .* for search/i;

async function withStore<T>(db: string, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openLocation(db);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** Rows of the full-text index, by kind, as the database holds them. */
async function indexed(db: string): Promise<Record<string, number>> {
  return withStore(db, async (store) => {
    const table = isSqliteStore(store) ? 'search_index' : 'search_documents';
    const rows = await selectRows<{ kind: string; n: number }>(store, `SELECT kind, count(*) AS n FROM ${table} GROUP BY kind ORDER BY kind`);
    return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
  });
}

/** Starts serve on the database and answers what it wrote to standard error by the time it serves. */
async function firstServeErrors(db: string): Promise<string> {
  const server = await startServe('--db', db);
  const errors = server.errors();
  await server.stop();
  return errors;
}

describe(`loom seed builds the search index of the ${testStoreKind} database it fills`, () => {
  it('lean: the index holds every person, and the first serve indexes nothing', async () => {
    const db = scratchLocation();
    const run = loom('seed', '--db', db, '--users', '40', '--profile', 'lean');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Indexing 40 objects of type user for search…$/m);
    assert.deepEqual(await indexed(db), { user: 40 });
    assert.doesNotMatch(await firstServeErrors(db), REINDEX_LINE);

    // A declaration that differs from the one the database holds (as after an upgrade) is
    // indexed again at start, and serve says so before it does.
    await withStore(db, (store) => selectRows(store, `UPDATE search_fields SET key = 'first_name' WHERE type = 'user' AND role = 'text' RETURNING type`));
    const changed = await firstServeErrors(db);
    assert.match(changed, /^loom: indexing 40 objects of type user for search…$/m);
    assert.deepEqual(await indexed(db), { user: 40 });
    assert.doesNotMatch(await firstServeErrors(db), REINDEX_LINE);
  });

  it('full: people, pages, groups and events are indexed before the first serve', async () => {
    const db = scratchLocation();
    const run = loom('seed', '--db', db, '--users', '5', '--profile', 'full');
    assert.equal(run.code, 0, run.stderr);
    const [, told] = /^Indexing ([\d,]+) objects of types [a-z, ]+ for search…$/m.exec(run.stderr) ?? [];
    assert.ok(told, run.stderr);
    const kinds = await indexed(db);
    assert.ok(kinds.user && kinds.user >= 5 && kinds.page, JSON.stringify(kinds));
    assert.equal(Object.values(kinds).reduce((sum, n) => sum + n, 0), Number(told.replace(/,/g, '')));
    assert.doesNotMatch(await firstServeErrors(db), REINDEX_LINE);
  });
});
