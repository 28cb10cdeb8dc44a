import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { recordConsent } from '../../src/auth/grants.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { startServe, type RunningServe } from '../helpers/cli.js';
import { startReplicatedCluster, type ReplicatedCluster } from '../helpers/pg-replica.js';

/**
 * A revocation reaches each process through its listening connection, at a moment of that
 * connection's own. Here the connection of one process hears of it half a second late (its
 * server process is paused, which only a private cluster lets a test do), and a token revoked
 * through the other process must still be refused by it on the very next request.
 */
describe('a token revoked through one process is refused by another that hears of it late', () => {
  let cluster: ReplicatedCluster;
  let store: PostgresStore;
  let app: AppRecord;
  let user: number;
  const servers: RunningServe[] = [];
  /** The media folder the servers share (otherwise one named after the database, in the working directory). */
  const mediaDir = mkdtempSync(join(tmpdir(), 'loom-revocation-media-'));
  /** The backends of the second process's listening connections. */
  let lateListeners: number[] = [];

  const listeners = async () =>
    (await cluster.query<{ pid: number }>('primary', `SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'loom-listener %'`)).map((row) => row.pid);

  before(async () => {
    cluster = startReplicatedCluster();
    store = await openPostgresStore(cluster.primary);
    const now = Math.floor(Date.now() / 1000);
    app = await store.createApp({ name: 'Revocations', secret: randomBytes(16).toString('hex'), idKey: randomBytes(16).toString('hex'), createdTime: now });
    const { results } = await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: now, data: { name: 'Bob Brook' } } }]);
    user = results[0] as number;
    servers.push(await startServe('--db', cluster.primary, '--no-demo', '--media-dir', mediaDir));
    const known = new Set(await listeners());
    servers.push(await startServe('--db', cluster.primary, '--no-demo', '--media-dir', mediaDir));
    lateListeners = (await listeners()).filter((pid) => !known.has(pid));
    assert.ok(lateListeners.length > 0, 'the second process listens');
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await store?.close();
    cluster?.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('removing the app through the first process refuses the token in the second at once', async () => {
    const [first, second] = servers as [RunningServe, RunningServe];
    // The processes run on the real clock.
    const now = Math.floor(Date.now() / 1000);
    await recordConsent(store, graphSchema().permissions, app.id, user, { granted: ['public_profile'], declined: [] });
    const { accessToken: token } = await issueUserToken(store, { appId: app.id, userId: user, scopes: ['public_profile'], expiresIn: 3600, now });
    const me = async (server: RunningServe) => {
      const response = await fetch(`${server.url}/v2.4/me?access_token=${encodeURIComponent(token)}`);
      return { status: response.status, body: (await response.json()) as { error?: { error_subcode?: number } } };
    };
    for (let i = 0; i < 3; i++) {
      for (const server of servers) {
        const answer = await me(server);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      }
    }
    for (const pid of lateListeners) process.kill(pid, 'SIGSTOP');
    const resume = setTimeout(() => lateListeners.forEach((pid) => process.kill(pid, 'SIGCONT')), 500);
    try {
      const removed = await fetch(`${first.url}/v2.4/me/permissions?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });
      assert.deepEqual(await removed.json(), { success: true });
      const refused = await me(second);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error?.error_subcode, 458);
    } finally {
      clearTimeout(resume);
      for (const pid of lateListeners) process.kill(pid, 'SIGCONT');
    }
  });

  it('restoring a snapshot through the first process refuses in the second at once a token issued after it', async () => {
    const [first, second] = servers as [RunningServe, RunningServe];
    const control = (server: RunningServe, path: string) =>
      fetch(`${server.url}/_loom${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'before' }) });
    assert.equal((await control(first, '/snapshots')).status, 200);
    const now = Math.floor(Date.now() / 1000);
    await recordConsent(store, graphSchema().permissions, app.id, user, { granted: ['public_profile'], declined: [] });
    const { accessToken: token } = await issueUserToken(store, { appId: app.id, userId: user, scopes: ['public_profile'], expiresIn: 3600, now });
    const me = () => fetch(`${second.url}/v2.4/me?access_token=${encodeURIComponent(token)}`);
    // The second process caches the token as valid.
    for (let i = 0; i < 3; i++) assert.equal((await me()).status, 200);
    for (const pid of lateListeners) process.kill(pid, 'SIGSTOP');
    const resume = setTimeout(() => lateListeners.forEach((pid) => process.kill(pid, 'SIGCONT')), 500);
    try {
      assert.equal((await control(first, '/snapshots/before/restore')).status, 200);
      const refused = await me();
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as { error?: { code?: number } }).error?.code, 190);
    } finally {
      clearTimeout(resume);
      for (const pid of lateListeners) process.kill(pid, 'SIGCONT');
    }
  });
});
