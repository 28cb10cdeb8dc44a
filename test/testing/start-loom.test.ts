// Written as another project's suite would be: only the package's `loom/testing` export and HTTP.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startLoom, type RunningLoom } from 'loom/testing';

describe('startLoom()', () => {
  let loom: RunningLoom;
  const graph = async (path: string, params: Record<string, string> = {}, method = 'GET') => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${loom.url}/v2.4${path}${method === 'GET' && query ? `?${query}` : ''}`, {
      method,
      ...(method === 'GET' ? {} : { body: new URLSearchParams(params) }),
    });
    return { status: response.status, body: (await response.json()) };
  };

  before(async () => {
    loom = await startLoom();
  });
  after(() => loom.close());
  beforeEach(() => loom.reset());

  it('serves a fresh graph with one app whose token works', async () => {
    assert.match(loom.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(loom.app.token, `${loom.app.id}|${loom.app.secret}`);
    const app = await graph(`/${loom.app.id}`, { access_token: loom.app.token });
    assert.equal(app.status, 200);
    assert.equal(app.body.id, loom.app.id);
  });

  it('makes test users whose tokens read and write the graph', async () => {
    const user = await loom.createTestUser({ name: 'Tess Tester', permissions: ['public_profile', 'publish_actions', 'user_posts'] });
    assert.equal((await graph('/me', { access_token: user.access_token! })).body.name, 'Tess Tester');
    const posted = await graph('/me/feed', { access_token: user.access_token!, message: 'Hello' }, 'POST');
    assert.equal(posted.status, 200);
    const feed = await graph('/me/feed', { access_token: user.access_token! });
    assert.deepEqual(feed.body.data.map((post: { id: string }) => post.id), [posted.body.id]);
  });

  it('resets to the empty graph between tests', async () => {
    const users = await graph(`/${loom.app.id}/accounts/test-users`, { access_token: loom.app.token });
    assert.deepEqual(users.body.data, []);
  });

  it('saves and restores snapshots', async () => {
    await loom.createTestUser({ name: 'Kept User' });
    await loom.snapshot('one-user');
    await loom.createTestUser({ name: 'Dropped User' });
    await loom.restore('one-user');
    const users = await graph(`/${loom.app.id}/accounts/test-users`, { access_token: loom.app.token });
    assert.equal(users.body.data.length, 1);
  });

  it('expires tokens when the clock moves, and goes back to real time', async () => {
    const user = await loom.createTestUser({ permissions: ['public_profile'] });
    await loom.clock.advance('2h');
    const expired = await graph('/me', { access_token: user.access_token! });
    assert.equal(expired.body.error.code, 190);
    assert.equal(expired.body.error.error_subcode, 463);
    const real = await loom.clock.real();
    assert.equal(real.frozen, false);
    assert.equal((await graph('/me', { access_token: user.access_token! })).status, 200);
  });

  it('fails on purpose with faults, and shows what was sent in the journal', async () => {
    const user = await loom.createTestUser({ permissions: ['public_profile'] });
    const { id } = await loom.faults.add({ match: { path: '/me' }, preset: 'app_rate_limit', times: 1 });
    const limited = await graph('/me', { access_token: user.access_token! });
    assert.equal(limited.status, 403);
    assert.equal(limited.body.error.code, 4);
    assert.equal((await graph('/me', { access_token: user.access_token! })).status, 200);
    assert.deepEqual((await loom.faults.list()).map((fault) => [fault.id, fault.fired]), [[id, 1]]);

    const [last] = await loom.requests.list({ limit: 1 });
    assert.equal(last!.path, '/me');
    assert.equal(last!.user_id, user.id);
    assert.equal(last!.params.access_token, '[redacted]');
  });

  it('keeps no secret of any kind in the request journal', async () => {
    const user = await loom.createTestUser({ permissions: ['public_profile', 'publish_actions'] });
    const secrets = [loom.app.secret, user.access_token!, user.password];
    const changed = 'a-new-password-123';
    secrets.push(changed);
    await graph(`/${user.id}`, { access_token: loom.app.token, password: changed }, 'POST');
    const proof = (await import('node:crypto')).createHmac('sha256', loom.app.secret).update(user.access_token!).digest('hex');
    secrets.push(proof);
    await graph('/me', { access_token: user.access_token!, appsecret_proof: proof });
    await graph('/me', { client_secret: loom.app.secret, access_token: `${loom.app.id}|${loom.app.secret}` });
    const batch = JSON.stringify([
      { method: 'GET', relative_url: `me?access_token=${user.access_token}` },
      { method: 'POST', relative_url: user.id, body: `password=${changed}`, headers: [`Authorization: OAuth ${user.access_token}`] },
    ]);
    await graph('/', { access_token: loom.app.token, batch }, 'POST');
    const journal = JSON.stringify(await loom.requests.list());
    assert.ok(journal.includes('[redacted]'));
    for (const secret of secrets) assert.ok(!journal.includes(secret), `the journal holds a secret: ${secret.slice(0, 4)}…`);
  });

  it('stops serving and deletes its data when closed', async () => {
    const other = await startLoom();
    assert.ok(existsSync(other.directory));
    await other.close();
    assert.equal(existsSync(other.directory), false);
    await assert.rejects(fetch(`${other.url}/_loom/clock`));
  });
});

describe('startLoom({ demo: true })', () => {
  it('starts servers at once on the demo graph, each on a database of its own', async () => {
    const [one, two] = await Promise.all([startLoom({ demo: true }), startLoom({ demo: true })]);
    try {
      const read = async (loom: RunningLoom, path: string) => (await fetch(`${loom.url}/v2.4${path}?access_token=${encodeURIComponent(loom.app.token)}`)).json();
      for (const loom of [one, two]) assert.equal((await read(loom, `/${loom.app.id}`)).name, 'Loom Demo');
      await one.createTestUser({ name: 'Only In One' });
      assert.equal((await read(one, `/${one.app.id}/accounts/test-users`)).data.length, 1);
      assert.deepEqual((await read(two, `/${two.app.id}/accounts/test-users`)).data, []);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
