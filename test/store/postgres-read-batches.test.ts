import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import { scratchLocation, testPostgresUrl } from '../helpers/test-store.js';
import { startWireCounter, type WireCounter } from '../helpers/wire-counter.js';

// A store of one connection, which the tests hold so that reads wait for it.
describe('PostgreSQL reads that wait for a connection', { skip: testPostgresUrl === undefined && 'LOOM_TEST_PG is not set' }, () => {
  let counter: WireCounter;
  let store: PostgresStore;
  let other: PostgresStore;
  const people: number[] = [];

  before(async () => {
    const location = scratchLocation('postgres');
    other = await openPostgresStore(location);
    const ops: WriteOp[] = Array.from({ length: 6 }, (_, i) => ({
      op: 'createObject' as const,
      object: { type: 'user', owner: null, createdTime: 1, data: { name: `Person ${i}` } },
    }));
    // Each person lists the next ones as friends: person i has 5 - i of them.
    for (let i = 0; i < 6; i++) {
      for (let j = i + 1; j < 6; j++) ops.push({ op: 'addAssoc', type: 'friends', id1: { ref: i }, id2: { ref: j }, time: j });
    }
    const { results } = await other.write(ops);
    people.push(...(results.slice(0, 6) as number[]));
    counter = await startWireCounter(location);
    const relayed = new URL(counter.url);
    relayed.searchParams.set('pool', '1');
    store = await openPostgresStore(relayed.toString());
  });
  after(async () => {
    await store.close();
    await counter.close();
    await other.close();
  });

  /** Runs `reads` while the store's one connection is held, then lets them go: what they sent, and their answers. */
  async function whileHeld<T>(reads: () => Promise<T>, meanwhile?: () => Promise<unknown>): Promise<{ answers: T; statements: number }> {
    const held: pg.PoolClient = await store.pool.connect();
    counter.reset();
    const answers = reads();
    await meanwhile?.();
    held.release();
    return { answers: await answers, statements: counter.statements() };
  }

  it('go out together, each answered with its own objects, pages and counts alone', async () => {
    const objects = await whileHeld(() => Promise.all(people.map((id) => store.getObjects([id]))));
    assert.equal(objects.statements, 1);
    objects.answers.forEach((found, i) => {
      assert.deepEqual([...found.keys()], [people[i]]);
      assert.equal(found.get(people[i]!)!.data.name, `Person ${i}`);
    });

    const pages = await whileHeld(() => Promise.all(people.map((id) => store.getPagesWithObjects({ type: 'friends', id1s: [id], limit: 3 }))));
    assert.equal(pages.statements, 1);
    pages.answers.forEach(({ pages: found, objects: listed }, i) => {
      const friends = people.slice(i + 1).reverse().slice(0, 3);
      assert.deepEqual([...found.keys()], [people[i]]);
      assert.deepEqual(found.get(people[i]!)!.map((row) => [row.id1, row.id2]), friends.map((friend) => [people[i], friend]));
      assert.deepEqual([...listed.keys()].sort(), [...friends].sort());
    });

    const counts = await whileHeld(() => Promise.all(people.map((id) => store.getCounts('friends', [id]))));
    assert.equal(counts.statements, 1);
    counts.answers.forEach((found, i) => assert.deepEqual([...found], [[people[i], 5 - i]]));
  });

  it('keeps reads of different statements, or of the same one with other values, apart', async () => {
    const { statements } = await whileHeld(() =>
      Promise.all([
        store.getCounts('friends', [people[0]!]),
        store.getCounts('likes', [people[0]!]),
        store.getPages({ type: 'friends', id1s: [people[0]!], limit: 2 }),
        store.getPages({ type: 'friends', id1s: [people[1]!], limit: 3 }),
        store.getObjects([people[0]!]),
      ]),
    );
    assert.equal(statements, 5);
  });

  it('see what was committed before they were asked for, though they join a read that waited from before', async () => {
    const id = people[0]!;
    let committed!: () => void;
    const written = new Promise<void>((resolve) => (committed = resolve));
    const { answers, statements } = await whileHeld(
      async () => {
        const first = store.getObjects([id]);
        await written;
        return Promise.all([first, store.getObjects([id])]);
      },
      async () => {
        await other.write([{ op: 'updateObject', id, data: { name: 'Renamed' }, updatedTime: 2 }]);
        committed();
        // The second read has joined the first before the connection is let go.
        await new Promise((resolve) => setImmediate(resolve));
      },
    );
    assert.equal(statements, 1);
    for (const found of answers) assert.equal(found.get(id)!.data.name, 'Renamed');
  });
});
