import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import { startServe, type RunningServe } from '../helpers/cli.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';
import { openLocation, testStoreKind } from '../helpers/test-store.js';

/**
 * What a token stands for is remembered between requests; each test first uses a token (so it is
 * remembered), then revokes it one way or another, and expects the very next request refused.
 */
describe(`cached tokens are refused on the next request after any revocation (${testStoreKind})`, () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  const me = (token: string, fields = 'id,name') => server.get('/v2.4/me', { access_token: token, fields });
  const remove = (path: string, token: string) => server.fetch(`${server.url}${path}?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });
  const assertRefused = (reply: Reply, subcode?: number) => {
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.code, 190, reply.text);
    assert.equal(reply.body.error.error_subcode, subcode, reply.text);
  };

  it('removing the app (DELETE /me/permissions) refuses the token at once', async () => {
    const token = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    for (let i = 0; i < 3; i++) assert.equal((await me(token)).status, 200);
    assert.deepEqual((await remove('/v2.4/me/permissions', token)).body, { success: true });
    assertRefused(await me(token), 458);
  });

  it('revoking one permission takes it from the token at once', async () => {
    const token = await fixture.tokenFor(fixture.users.carol, ['public_profile', 'user_friends']);
    const friends = () => server.get('/v2.4/me/friends', { access_token: token, summary: 'true' });
    assert.equal((await friends()).body.summary.total_count, 1, 'Carol is friends with Alice');
    assert.deepEqual((await remove('/v2.4/me/permissions/user_friends', token)).body, { success: true });
    assert.deepEqual((await friends()).body, { data: [] }, 'without user_friends the edge is empty');
  });

  it('refuses a token the moment the clock passes its expiry', async () => {
    const token = await fixture.tokenFor(fixture.users.dave, ['public_profile']);
    const expiry = fixture.now + 3600;
    // The server's one clock, moved through the control API as a test suite would move it.
    const setClock = async (now: number) => {
      const reply = await server.fetch(`${server.url}/_loom/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ now }),
      });
      assert.equal(reply.status, 200, reply.text);
    };
    assert.equal((await me(token)).status, 200);
    try {
      await setClock(expiry - 1);
      assert.equal((await me(token)).status, 200, 'still valid one second before');
      await setClock(expiry);
      assertRefused(await me(token), 463);
    } finally {
      await setClock(fixture.now);
    }
  });

  it('deleting a test user refuses their token at once', async () => {
    const created = await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, installed: 'true' });
    assert.equal(created.status, 200, created.text);
    const { id, access_token: token } = created.body as { id: string; access_token: string };
    assert.equal((await me(token)).body.id, id);
    assert.equal((await remove(`/v2.4/${id}`, appToken)).text, '{"success":true}');
    assertRefused(await me(token));
  });

  it('a revocation written by another store on the same database reaches this server before its next request', async () => {
    const token = await fixture.tokenFor(fixture.likers[0]!, ['public_profile']);
    await fixture.store.setGrants(fixture.app.id, [{ userId: fixture.likers[0]!, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
    assert.equal((await me(token)).status, 200);
    const other = await openLocation(fixture.path);
    try {
      await other.revokeTokens(fixture.app.id, fixture.likers[0]!, fixture.now);
      await other.setGrants(fixture.app.id, [{ userId: fixture.likers[0]!, grants: [] }]);
    } finally {
      await other.close();
    }
    assertRefused(await me(token), 458);
  });

  it('an app token stops working when the app is gone from the store', async () => {
    assert.equal((await server.get(`/v2.4/${fixture.app.id}`, { access_token: appToken })).status, 200);
    const renamed = await fixture.store.createApp({ name: 'Short-lived', secret: 'short-lived-secret', idKey: 'ab'.repeat(16), createdTime: fixture.now });
    const shortToken = `${renamed.id}|short-lived-secret`;
    assert.equal((await server.get(`/v2.4/${renamed.id}`, { access_token: shortToken })).status, 200);
    await fixture.store.write([{ op: 'deleteObject', id: renamed.id }]);
    assertRefused(await server.get(`/v2.4/${fixture.app.id}`, { access_token: shortToken }));
  });
});

describe(`two loom processes on one ${testStoreKind} database share no stale token`, () => {
  let fixture: Fixture;
  let servers: RunningServe[] = [];
  before(async () => {
    fixture = await buildFixture();
    servers = await Promise.all([startServe('--db', fixture.path, '--no-demo'), startServe('--db', fixture.path, '--no-demo')]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await fixture.store.close();
  });

  it('a token revoked through one process is refused by the other on its next request', async () => {
    const [a, b] = servers as [RunningServe, RunningServe];
    // The processes run on the real clock, not the fixture's.
    const now = Math.floor(Date.now() / 1000);
    const { accessToken: token } = await issueUserToken(fixture.store, { appId: fixture.app.id, userId: fixture.users.bob, scopes: ['public_profile'], expiresIn: 3600, now });
    const me = async (server: RunningServe) => {
      const response = await fetch(`${server.url}/v2.4/me?access_token=${encodeURIComponent(token)}`);
      return { status: response.status, body: (await response.json()) };
    };
    for (let i = 0; i < 3; i++) {
      assert.equal((await me(a)).status, 200);
      assert.equal((await me(b)).status, 200);
    }
    const removed = await fetch(`${a.url}/v2.4/me/permissions?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });
    assert.deepEqual(await removed.json(), { success: true });
    const refused = await me(b);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.error.error_subcode, 458);
  });
});
