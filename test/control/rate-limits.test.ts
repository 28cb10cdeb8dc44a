import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { updateApp } from '../../src/auth/app-admin.js';
import { Clock } from '../../src/clock/clock.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { openLocation } from '../helpers/test-store.js';

describe('rate limits', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const usage = (reply: Reply) => JSON.parse(reply.headers.get('x-app-usage') ?? 'null');
  const asApp = () => server.get(`/v2.4/${fixture.app.id}`, { access_token: appToken });

  before(async () => {
    fixture = await buildFixture();
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    server = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), rateLimits: true });
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  it('are off by default: no usage header', async () => {
    const plain = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now) });
    try {
      const reply = await plain.get('/v2.4/me', { access_token: fixture.aliceToken });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get('x-app-usage'), null);
    } finally {
      await plain.close();
    }
  });

  it('budget 200 calls an hour per user of the app by default, shown as whole percentages in valid JSON', async () => {
    const reply = await server.get('/v2.4/me', { access_token: fixture.aliceToken });
    assert.equal(reply.status, 200);
    assert.deepEqual(usage(reply), { call_count: 0, total_cputime: 0, total_time: 0 });
  });

  it('fail past 100% of the app budget with code 4, and recover once the clock moves an hour on', async () => {
    await updateApp(fixture.store, fixture.app.id, { callsPerHour: 5 }, fixture.now);
    await server.fetch(`${server.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '1h' }) });
    const percentages: number[] = [];
    for (let call = 1; call <= 5; call += 1) {
      const reply = await asApp();
      assert.equal(reply.status, 200, `call ${call}`);
      percentages.push(usage(reply).call_count);
    }
    assert.deepEqual(percentages, [20, 40, 60, 80, 100]);
    const limited = await asApp();
    assert.equal(limited.status, 403);
    assert.deepEqual(
      { ...limited.body.error, fbtrace_id: undefined },
      { message: '(#4) Application request limit reached', type: 'OAuthException', is_transient: true, code: 4, fbtrace_id: undefined },
    );
    assert.equal(usage(limited).call_count, 120);

    await server.fetch(`${server.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '59m' }) });
    assert.equal((await asApp()).status, 403, 'the calls of the last hour still count');
    await server.fetch(`${server.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '1m' }) });
    const recovered = await asApp();
    assert.equal(recovered.status, 200);
    assert.equal(usage(recovered).call_count, 40, 'this call and the refused one a minute ago');
  });

  it('fail a user past their budget with code 17, before the app is', async () => {
    const user = await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, installed: 'true', permissions: 'public_profile' });
    assert.equal(user.status, 200);
    await server.fetch(`${server.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '1h' }) });
    const replies: Reply[] = [];
    for (let call = 0; call < 6; call += 1) replies.push(await server.get('/v2.4/me', { access_token: user.body.access_token }));
    assert.deepEqual(replies.map((reply) => reply.status), [200, 200, 200, 200, 200, 403]);
    assert.deepEqual(
      { ...replies[5]!.body.error, fbtrace_id: undefined },
      { message: '(#17) User request limit reached', type: 'OAuthException', is_transient: true, code: 17, fbtrace_id: undefined },
    );
  });

  it('count each batch operation as one call, and put the usage on each item', async () => {
    await server.fetch(`${server.url}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '2h' }) });
    const batch = JSON.stringify([
      { method: 'GET', relative_url: `${fixture.app.id}` },
      { method: 'GET', relative_url: `${fixture.app.id}` },
      { method: 'GET', relative_url: `${fixture.app.id}` },
    ]);
    const answered = await server.form('/v2.4/', { access_token: appToken, batch });
    assert.equal(answered.status, 200);
    const items = answered.body.map((item: { headers: Array<{ name: string; value: string }> }) =>
      JSON.parse(item.headers.find((header) => header.name.toLowerCase() === 'x-app-usage')!.value).call_count,
    );
    assert.deepEqual(items, [20, 40, 60]);
    assert.equal(usage(await asApp()).call_count, 80);
  });

  it('keep the counts in the store, shared by every process and kept across a restart', async () => {
    const otherStore = await openLocation(fixture.path);
    const other = await startServer(otherStore, { clock: Clock.frozenAt(0), rateLimits: true });
    try {
      const reply = await other.get(`/v2.4/${fixture.app.id}`, { access_token: appToken });
      assert.equal(usage(reply).call_count, 100, 'the fifth call of the hour, four of them through the first server');
      assert.equal((await asApp()).status, 403);
    } finally {
      await other.close();
      await otherStore.close();
    }
  });
});
