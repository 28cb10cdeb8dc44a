import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import { startServe, type RunningServe } from '../helpers/cli.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { testStoreKind } from '../helpers/test-store.js';

/** Enough requests that both workers answer some, whichever way the connections are spread. */
const ROUNDS = 8;

describe(`the control API of loom serve --workers 2 on ${testStoreKind}`, () => {
  let fixture: Fixture;
  let serve: RunningServe;
  let token: string;

  before(async () => {
    fixture = await buildFixture();
    const now = Math.floor(Date.now() / 1000);
    token = (await issueUserToken(fixture.store, { appId: fixture.app.id, userId: fixture.users.alice, scopes: ['public_profile', 'publish_actions', 'user_posts'], expiresIn: 3600, now })).accessToken;
    serve = await startServe('--db', fixture.path, '--no-demo', '--workers', '2');
  });
  after(async () => {
    await serve.stop();
    await fixture.store.close();
  });

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${serve.url}/_loom${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) };
  };
  /** The same request from fresh connections, so that each may land on either worker. */
  const everywhere = async (path: string): Promise<Array<{ status: number; body: any }>> =>
    Promise.all(
      Array.from({ length: ROUNDS }, async () => {
        const response = await fetch(`${serve.url}${path}`, { headers: { connection: 'close' } });
        return { status: response.status, body: (await response.json()) };
      }),
    );

  it('restores a snapshot in one process that every worker reads next', async () => {
    assert.equal((await control('POST', '/snapshots', { name: 'before' })).status, 200);
    const created = await fetch(`${serve.url}/v2.4/me/feed`, { method: 'POST', body: new URLSearchParams({ access_token: token, message: 'Gone after the restore' }) });
    const { id } = (await created.json()) as { id: string };
    assert.ok((await everywhere(`/v2.4/${id}?access_token=${token}`)).every((reply) => reply.status === 200));
    // A token issued since, from outside the server, which every worker then knows and caches.
    const now = Math.floor(Date.now() / 1000);
    const later = (await issueUserToken(fixture.store, { appId: fixture.app.id, userId: fixture.users.bob, scopes: ['public_profile'], expiresIn: 3600, now })).accessToken;
    assert.ok((await everywhere(`/v2.4/me?access_token=${later}`)).every((reply) => reply.status === 200));
    assert.equal((await control('POST', '/snapshots/before/restore', {})).status, 200);
    const after = await everywhere(`/v2.4/${id}?access_token=${token}`);
    assert.deepEqual(after.map((reply) => reply.status), Array(ROUNDS).fill(400));
    const forgotten = await everywhere(`/v2.4/me?access_token=${later}`);
    assert.deepEqual(forgotten.map((reply) => reply.body.error?.code), Array(ROUNDS).fill(190));
  });

  it('moves the clock of every worker, and puts it back', async () => {
    assert.equal((await control('POST', '/clock', { advance: '2h' })).status, 200);
    const expired = await everywhere(`/v2.4/me?access_token=${token}`);
    assert.deepEqual(expired.map((reply) => reply.body.error?.error_subcode), Array(ROUNDS).fill(463));
    await control('DELETE', '/clock');
    assert.ok((await everywhere(`/v2.4/me?access_token=${token}`)).every((reply) => reply.status === 200));
  });

  it('resets to the graph the server started with', async () => {
    const created = await fetch(`${serve.url}/v2.4/me/feed`, { method: 'POST', body: new URLSearchParams({ access_token: token, message: 'Reset away' }) });
    const { id } = (await created.json()) as { id: string };
    assert.equal((await control('POST', '/reset', {})).status, 200);
    const after = await everywhere(`/v2.4/${id}?access_token=${token}`);
    assert.deepEqual(after.map((reply) => reply.status), Array(ROUNDS).fill(400));
  });
});
