import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import type { ObjectId } from '../../src/ids.js';
import { startServe, type RunningServe } from '../helpers/cli.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { testStoreKind } from '../helpers/test-store.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const LIKERS = 200;

describe(`several loom processes on one ${testStoreKind} database`, () => {
  let fixture: Fixture;
  let servers: RunningServe[] = [];
  let aliceToken: string;
  let likerTokens: string[];
  before(async () => {
    fixture = await buildFixture();
    const now = Math.floor(Date.now() / 1000);
    const token = async (userId: ObjectId) =>
      (await issueUserToken(fixture.store, { appId: fixture.app.id, userId, scopes: ['public_profile', 'publish_actions'], expiresIn: 3600, now })).accessToken;
    const likers = fixture.likers.slice(0, LIKERS);
    const scopes = ['public_profile', 'publish_actions'].map((scope) => ({ scope, status: 'granted' as const }));
    await fixture.store.setGrants(fixture.app.id, likers.map((userId) => ({ userId, grants: scopes })));
    aliceToken = await token(fixture.users.alice);
    likerTokens = await Promise.all(likers.map(token));
    servers = await Promise.all([startServe('--db', fixture.path, '--no-demo'), startServe('--db', fixture.path, '--no-demo')]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await fixture.store.close();
  });

  const call = async (server: RunningServe, method: string, path: string, params: Record<string, string>) => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${server.url}${path}?${query}`, { method });
    return { status: response.status, body: (await response.json()) };
  };

  it('reads, likes and deletes through one process a post written through the other, at once', async () => {
    const [a, b] = servers as [RunningServe, RunningServe];
    const created = await call(a, 'POST', '/v2.4/me/feed', { access_token: aliceToken, message: 'Written on A', privacy: '{"value":"EVERYONE"}' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.id;

    const read = await call(b, 'GET', `/v2.4/${id}`, { access_token: aliceToken, fields: 'message' });
    assert.deepEqual(read.body, { message: 'Written on A', id });
    assert.equal((await call(b, 'POST', `/v2.4/${id}/likes`, { access_token: aliceToken })).status, 200);
    const summary = await call(a, 'GET', `/v2.4/${id}`, { access_token: aliceToken, fields: 'likes.summary(true).limit(0)' });
    assert.equal(summary.body.likes.summary.total_count, 1);

    // Every liker at once, half through each process, plus a second like from each of the first
    // fifty through the other process: the count must come out exact.
    const likes = likerTokens.map((token, i) => call(servers[i % 2]!, 'POST', `/v2.4/${id}/likes`, { access_token: token }));
    const repeats = likerTokens.slice(0, 50).map((token, i) => call(servers[(i + 1) % 2]!, 'POST', `/v2.4/${id}/likes`, { access_token: token }));
    const replies = await Promise.all([...likes, ...repeats]);
    assert.deepEqual(replies.filter((reply) => reply.status !== 200), []);
    for (const server of servers) {
      const total = await call(server, 'GET', `/v2.4/${id}/likes`, { access_token: aliceToken, summary: 'true', limit: '0' });
      assert.equal(total.body.summary.total_count, LIKERS + 1);
    }
    const listed = await call(b, 'GET', `/v2.4/${id}/likes`, { access_token: aliceToken, limit: '100' });
    assert.equal(listed.body.data.length, 100);

    assert.deepEqual((await call(b, 'DELETE', `/v2.4/${id}`, { access_token: aliceToken })).body, { success: true });
    const gone = await call(a, 'GET', `/v2.4/${id}`, { access_token: aliceToken });
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error.code, 100);
  });

  it('serves one port from several worker processes with --workers', async () => {
    const cluster = await startServe('--db', fixture.path, '--no-demo', '--workers', '2');
    try {
      assert.match(cluster.output(), /from 2 worker processes/);
      // Separate connections, so the cluster spreads them over its workers.
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${cluster.url}/v2.4/me?access_token=${aliceToken}`, { headers: { connection: 'close' } }).then((r) => r.json()),
        ),
      );
      assert.ok(replies.every((reply: any) => reply.name === 'Alice Arden'));
    } finally {
      assert.equal(await cluster.stop(), 0, 'the primary stops its workers and exits cleanly');
    }
    const pids = new Set([...cluster.output().matchAll(/"pid":(\d+)[^\n]*"msg":"request"/g)].map((m) => m[1]));
    assert.equal(pids.size, 2, `requests were answered by the processes ${[...pids].join(', ')}`);
  });

  it('stops within a bounded time even when a worker does not end when asked', { timeout: 60_000 }, async () => {
    const cluster = await startServe('--db', fixture.path, '--no-demo', '--workers', '2');
    let stuck: number | undefined;
    try {
      await fetch(`${cluster.url}/v2.4/me?access_token=${aliceToken}`, { headers: { connection: 'close' } });
      // The worker that answered logs the request with its pid.
      const deadline = Date.now() + PATIENCE_MS;
      let logged: RegExpExecArray | null;
      while ((logged = /"pid":(\d+)[^\n]*"msg":"request"/.exec(cluster.output())) === null) {
        assert.ok(Date.now() < deadline, `no request was logged: ${cluster.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      stuck = Number(logged[1]);
      // A stopped process cannot act on SIGTERM.
      process.kill(stuck, 'SIGSTOP');
      const stopped = await Promise.race([cluster.stop(), new Promise((resolve) => setTimeout(resolve, 20_000, 'still running'))]);
      assert.equal(stopped, 0, 'the primary ends despite its stuck worker');
    } finally {
      if (stuck !== undefined) {
        try {
          process.kill(stuck, 'SIGKILL');
        } catch {
          // It is gone already.
        }
      }
      await cluster.stop();
    }
  });
});
