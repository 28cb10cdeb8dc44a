import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { loom, startServe, type RunningServe } from '../helpers/cli.js';
import { eventually } from '../helpers/patience.js';
import { startReplicatedCluster, type ReplicatedCluster } from '../helpers/pg-replica.js';

/** How late the replica applies each transaction: longer than any request takes here. */
const APPLY_DELAY_MS = 200;
/** Time given the replica to take a changed apply delay. */
const RELOAD_SETTLE_MS = 1000;
/** The servers' --max-replica-lag: far above the apply delay, far below the lag made on purpose. */
const MAX_LAG_S = 2;
/**
 * PostgreSQL publishes a connection's counts of transactions once it has been idle this long (or
 * when it ends): the counts are read only once every connection's are in.
 */
const STATS_SETTLE_MS = 11_000;

/** Runs `work` for each item, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * Two `loom serve` processes on one PostgreSQL primary, both reading from its streaming replica,
 * which applies each transaction 200 ms after its commit: reads run on the replica, anyone reads
 * their own writes through the other process at once, a stopped replica costs no request an
 * error and is used again once back, and a revoked token is refused at once by both.
 */
describe('reads on a streaming replica, through two processes', () => {
  let cluster: ReplicatedCluster;
  let mediaDir: string;
  let servers: RunningServe[] = [];
  let token = '';

  const serve = () => startServe('--db', cluster.primary, '--read-replica', cluster.replica, '--max-replica-lag', String(MAX_LAG_S), '--media-dir', mediaDir);
  const startBoth = async () => {
    servers = [await serve(), await serve()];
    token = /^Access token \(valid [^)]*\): (\S+)$/m.exec(servers[0]!.output())?.[1] ?? '';
    assert.ok(token !== '', `the banner shows a token: ${servers[0]!.output()}`);
  };
  const stopBoth = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
  };
  const get = async (server: RunningServe, path: string) => {
    const response = await fetch(`${server.url}/v2.4/${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const commits = async (on: 'primary' | 'replica') =>
    Number((await cluster.query<{ n: string }>(on, `SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`))[0]!.n);
  const loomBackends = async (on: 'primary' | 'replica', extra = '', values: unknown[] = []) =>
    Number((await cluster.query<{ n: string }>(on, `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'loom%' ${extra}`, values))[0]!.n);
  /** Waits until a process reads the graph on the replica again, after `since` (the replica's time). */
  const readsOnReplicaAfter = (since: string) =>
    eventually(async () => {
      await Promise.all(servers.map((server) => get(server, 'me/friends?limit=2')));
      // A connection whose last statement was a page read, sent after `since`.
      return (await loomBackends('replica', `AND query LIKE '%FROM associations%' AND query_start > $1`, [since])) > 0;
    }, 'reads on the replica again');
  const applyDelay = async (delay: string) => {
    await cluster.query('replica', `ALTER SYSTEM SET recovery_min_apply_delay = '${delay}'`);
    await cluster.query('replica', 'SELECT pg_reload_conf()');
    // The replica's replay takes the new setting when it next looks at its signals, soon but not at once.
    await new Promise((resolve) => setTimeout(resolve, RELOAD_SETTLE_MS));
  };
  const replicaNow = async () => (await cluster.query<{ now: string }>('replica', 'SELECT clock_timestamp()::text AS now'))[0]!.now;

  before(async () => {
    cluster = startReplicatedCluster(APPLY_DELAY_MS);
    mediaDir = mkdtempSync(join(tmpdir(), 'loom-replica-media-'));
    const seeded = loom('seed', '--db', cluster.primary, '--users', '20');
    assert.equal(seeded.code, 0, seeded.stderr);
  });
  after(async () => {
    await stopBoth();
    cluster?.stop();
    if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  });

  it('refuses to start when a replica cannot be reached, naming it', () => {
    const refused = loom('serve', '--db', cluster.primary, '--read-replica', 'postgres://postgres@127.0.0.1:1/postgres', '--media-dir', mediaDir, '--port', '0');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /read replica postgres:\/\/postgres@127\.0\.0\.1:1\/postgres/);
  });

  it('runs at least 90% of the transactions of a read-only load on the replica', async () => {
    await startBoth();
    await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
    const before = { primary: await commits('primary'), replica: await commits('replica') };
    const paths = [
      'me?fields=id,name,friends.limit(5){name,posts.limit(2){message,likes.limit(3){name}}}',
      'me/feed?limit=5&fields=message,likes.summary(true).limit(2){name},comments.limit(2){message,from}',
      'me/friends?limit=10&fields=name,photos.limit(2){name}',
    ];
    const reads = Array.from({ length: 300 }, (_, index) => index);
    await inParallel(reads, 8, async (index) => {
      const answer = await get(servers[index % 2]!, paths[index % paths.length]!);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    });
    // Connections that end publish their counts: stop both processes, and wait until they have.
    await stopBoth();
    await eventually(async () => (await loomBackends('primary')) === 0 && (await loomBackends('replica')) === 0, 'the processes to disconnect');
    const onPrimary = (await commits('primary')) - before.primary;
    const onReplica = (await commits('replica')) - before.replica;
    const share = onReplica / (onReplica + onPrimary);
    process.stdout.write(`# 300 reads: ${onReplica} transactions on the replica, ${onPrimary} on the primary (${(100 * share).toFixed(1)}% on the replica)\n`);
    assert.ok(share >= 0.9, `${onReplica} transactions on the replica and ${onPrimary} on the primary`);
  });

  it('answers a read through one process with the write just made through the other', async () => {
    await startBoth();
    const pairs = Array.from({ length: 150 }, (_, index) => index);
    const stale: string[] = [];
    await inParallel(pairs, 25, async (index) => {
      const [writer, reader] = index % 2 === 0 ? [servers[0]!, servers[1]!] : [servers[1]!, servers[0]!];
      const message = `replicated write ${index}`;
      const posted = await fetch(`${writer.url}/v2.4/me/feed`, { method: 'POST', body: new URLSearchParams({ message, access_token: token }) });
      const { id } = (await posted.json()) as { id?: string };
      assert.ok(id, `post ${index} was made`);
      const read = await get(reader, `${id}?fields=message`);
      if (read.body.message !== message) stale.push(`${index}: ${JSON.stringify(read.body)}`);
    });
    assert.deepEqual(stale, []);
  });

  it('answers every read while the replica is stopped, and reads from it again once it is back', async () => {
    // Both processes read from the replica before it stops (a process tells only of a replica it used).
    const inUse = (server: RunningServe) => (server.errors().match(/^loom: read replica \S+ in use$/gm) ?? []).length;
    const lastSaysInUse = (server: RunningServe) => / in use$/.test(server.errors().trimEnd().split('\n').at(-1) ?? '');
    await eventually(async () => servers.every(lastSaysInUse), 'both processes reading from the replica');
    const before = servers.map(inUse);
    cluster.stopReplica();
    const failures: string[] = [];
    await inParallel(Array.from({ length: 100 }, (_, index) => index), 5, async (index) => {
      const answer = await get(servers[index % 2]!, 'me?fields=id,name');
      if (answer.status !== 200) failures.push(`${index}: ${answer.status} ${JSON.stringify(answer.body)}`);
    });
    assert.deepEqual(failures, []);
    cluster.startReplica();
    await readsOnReplicaAfter(await replicaNow());
    // Each process tells its operator when it stopped reading from the replica and when it went back to it.
    for (const [index, server] of servers.entries()) {
      await eventually(async () => inUse(server) > before[index]!, 'the replica told in use again');
      assert.match(server.errors(), /^loom: read replica postgres(ql)?:\/\/\S+ skipped: (it cannot be reached|a read failed): .+; its reads go to the primary/m);
    }
  });

  it('skips a replica that lags past --max-replica-lag, and reads from it again once it caught up', async () => {
    await applyDelay('60s');
    try {
      const message = 'written while the replica lags';
      const posted = await fetch(`${servers[0]!.url}/v2.4/me/feed`, { method: 'POST', body: new URLSearchParams({ message, access_token: token }) });
      const answer = (await posted.json()) as { id?: string };
      assert.ok(answer.id, JSON.stringify(answer));
      const holding = async (on: 'primary' | 'replica') =>
        Number((await cluster.query<{ n: string }>(on, `SELECT count(*) AS n FROM objects WHERE data::text LIKE $1`, [`%${message}%`]))[0]!.n);
      // Answered long before the replica applies it; the other process reads it all the same.
      assert.deepEqual([await holding('primary'), await holding('replica')], [1, 0]);
      assert.deepEqual((await get(servers[1]!, `${answer.id}?fields=message`)).body, { message, id: answer.id });
      const told = servers.map((server) => server.errors()).join('');
      assert.match(told, new RegExp(`skipped: (it is \\d+\\.\\d s behind the primary, past the limit of ${MAX_LAG_S} s|it did not replay a write in time);`));
    } finally {
      await applyDelay('0');
    }
    await readsOnReplicaAfter(await replicaNow());
  });

  it('reads the graph from the primary after a change notice, until the replica replayed the change', async () => {
    // Two stores of two processes: one writes without replicas, the other reads through them.
    const [writer, reader] = [await openPostgresStore(cluster.primary), await openPostgresStore(cluster.primary, { urls: [cluster.replica], maxLagMs: 60_000 })];
    try {
      // Made through the reader, so the replica holds it once the calls are answered.
      const app = await reader.createApp({ name: 'Fenced', secret: 's', idKey: 'k', createdTime: 1 });
      const { results } = await reader.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Fenced' } } }]);
      const person = results[0] as number;
      await reader.setGrants(app.id, [{ userId: person, grants: [{ scope: 'user_friends', status: 'granted' }] }]);
      const scopes = async () => (await reader.replicaReads!.getObjectsWithGrants([person], app.id)).grantedScopes.get(person);
      // Until the reader reads them on the replica (a store takes a replica in a few checks after it starts).
      const since = await replicaNow();
      await eventually(async () => {
        assert.deepEqual(await scopes(), ['user_friends']);
        return (await loomBackends('replica', `AND query LIKE '%object_scopes%' AND query_start > $1`, [since])) > 0;
      }, 'the reader to read grants on the replica');
      // The replica applies the withdrawal 5 s late; the reader has heard of it once the writer is answered.
      await applyDelay('5s');
      await writer.setGrants(app.id, [{ userId: person, grants: [] }]);
      assert.deepEqual(await scopes(), []);
    } finally {
      await applyDelay('0');
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  it('refuses a revoked token at once in both processes', async () => {
    for (const server of servers) assert.equal((await get(server, 'me?fields=id')).status, 200);
    const revoked = await fetch(`${servers[0]!.url}/v2.4/me/permissions?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });
    assert.deepEqual(await revoked.json(), { success: true });
    for (const server of [servers[1]!, servers[0]!]) {
      const refused = await get(server, 'me?fields=id');
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
    }
  });
});
