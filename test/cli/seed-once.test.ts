import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seedGraph } from '../../src/seed/demo-graph.js';
import { spawnLoom, startServe } from '../helpers/cli.js';
import { openLocation, scratchLocation, testStoreKind } from '../helpers/test-store.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const USERS = '5';

/** The demo apps of the database: a seed makes exactly one. */
async function demoApps(location: string): Promise<string[]> {
  const store = await openLocation(location);
  try {
    return (await store.listApps()).map((app) => app.name);
  } finally {
    await store.close();
  }
}

describe(`seeding one fresh ${testStoreKind} database from several processes at once`, () => {
  it('two loom seed processes leave exactly one demo graph', async () => {
    const db = scratchLocation();
    const runs = await Promise.all([spawnLoom('seed', '--db', db, '--users', USERS).exited, spawnLoom('seed', '--db', db, '--users', USERS).exited]);
    const seeded = runs.filter((run) => run.code === 0 && /^Seeded /.test(run.stdout));
    assert.equal(seeded.length, 1, runs.map((run) => run.stdout + run.stderr).join('\n'));
    // The other one either waited for that seed, or started only once it was complete.
    const other = runs.find((run) => run !== seeded[0])!;
    if (other.code === 0) assert.match(other.stdout, /^Another process seeded /);
    else assert.match(other.stderr, /already holds a graph/);
    assert.deepEqual(await demoApps(db), ['Loom Demo']);
  });

  it('a serve and a seed started together share one demo graph, and serve prints its token', async () => {
    const db = scratchLocation();
    const [server, run] = await Promise.all([startServe('--db', db), spawnLoom('seed', '--db', db, '--users', USERS).exited]);
    try {
      assert.match(server.output(), /Access token \(valid 2 hours\): EAA/);
      assert.ok(run.code === 0 || /already holds a graph/.test(run.stderr), run.stderr);
      assert.deepEqual(await demoApps(db), ['Loom Demo']);
    } finally {
      await server.stop();
    }
  });

  it('waits for the process that claimed the seed until its graph is complete, instead of seeding too', async () => {
    const db = scratchLocation();
    const store = await openLocation(db);
    try {
      // This test is the process that won the claim and seeds.
      await store.initSetting('demo.seeding', 'this test');
      const waiting = spawnLoom('seed', '--db', db, '--users', USERS);
      const deadline = Date.now() + PATIENCE_MS;
      while (!waiting.output().includes('waiting for it to finish')) {
        assert.ok(Date.now() < deadline, `seed did not wait: ${waiting.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.deepEqual(await store.listApps(), [], 'the waiting process seeds nothing');
      await seedGraph(store, { users: 3, seed: 'claimed', now: Math.floor(Date.now() / 1000) });
      const run = await waiting.exited;
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Another process seeded /);
      assert.deepEqual((await store.listApps()).map((app) => app.name), ['Loom Demo']);
    } finally {
      await store.close();
    }
  });
});
