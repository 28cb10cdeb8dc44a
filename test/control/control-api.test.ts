import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { exportGraph } from '../../src/cli/export.js';
import { Clock } from '../../src/clock/clock.js';
import type { Store } from '../../src/store/store.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { openLocation } from '../helpers/test-store.js';

/** How long the server keeps a refused request's connection before it closes it (src/http/connection-limits.ts). */
const LINGER_MS = 2000;

/** Lines of one export that the other lacks, both ways: empty when the two are the same. */
function differences(actual: string, expected: string): { extra: string[]; missing: string[] } {
  const [a, e] = [actual.split('\n'), expected.split('\n')];
  const clip = (line: string) => line.slice(0, 300);
  return { extra: a.filter((line) => !e.includes(line)).map(clip), missing: e.filter((line) => !a.includes(line)).map(clip) };
}

/** The whole graph as `loom export` writes it, less the live settings of the running servers. */
async function exported(store: Store): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await exportGraph(store, out, { tokens: true, secrets: true, keys: true });
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => !line.includes('"key":"live.'))
    .join('\n');
}

describe('the control API', () => {
  let fixture: Fixture;
  let server: TestServer;
  const clock = Clock.frozenAt(0);

  const control = (method: string, path: string, body?: unknown): Promise<Reply> =>
    server.fetch(`${server.url}/_loom${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const me = (token = fixture.aliceToken) => server.get('/v2.4/me', { access_token: token });

  before(async () => {
    fixture = await buildFixture();
    clock.freeze(fixture.now);
    server = await startServer(fixture.store, { clock, recordStart: true });
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  it('resets the graph after writes to the state it started with, byte for byte', async () => {
    const start = await exported(fixture.store);
    const posted = await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: 'Written before a reset' });
    assert.equal(posted.status, 200);
    await server.form(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.bob)}/likes`, { access_token: fixture.aliceToken }, 'DELETE');
    assert.notEqual(await exported(fixture.store), start);

    const reset = await control('POST', '/reset', {});
    assert.equal(reset.status, 200);
    assert.deepEqual(reset.body, { success: true });
    assert.deepEqual(differences(await exported(fixture.store), start), { extra: [], missing: [] });
    assert.equal((await server.get(`/v2.4/${posted.body.id}`, { access_token: fixture.aliceToken })).status, 400);
  });

  it('saves, lists, restores and deletes named snapshots', async () => {
    const saved = await control('POST', '/snapshots', { name: 'before-post' });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body, { name: 'before-post', created_time: '2025-10-09T08:53:20+0000' });
    const before = await exported(fixture.store);
    const posted = await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: 'After the snapshot' });
    assert.equal(posted.status, 200);

    assert.deepEqual((await control('GET', '/snapshots')).body, { data: [{ name: 'before-post', created_time: '2025-10-09T08:53:20+0000' }] });
    assert.equal((await control('POST', '/snapshots/before-post/restore', {})).status, 200);
    assert.deepEqual(differences(await exported(fixture.store), before), { extra: [], missing: [] });

    assert.equal((await control('DELETE', '/snapshots/before-post')).status, 200);
    assert.deepEqual((await control('GET', '/snapshots')).body, { data: [] });
    const missing = await control('POST', '/snapshots/before-post/restore', {});
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 100);
    const badName = await control('POST', '/snapshots', { name: '../escape' });
    assert.equal(badName.status, 400);
    assert.match(badName.body.error.message, /snapshot name/);
  });

  it('moves the one clock: writes take its time and tokens expire by it', async () => {
    assert.deepEqual((await control('GET', '/clock')).body, { now: '2025-10-09T08:53:20+0000', unix: fixture.now, frozen: true });
    const set = await control('POST', '/clock', { now: '2026-01-01T00:00:00+0000' });
    assert.deepEqual(set.body, { now: '2026-01-01T00:00:00+0000', unix: 1_767_225_600, frozen: true });
    const token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'publish_actions', 'user_posts']);
    // That token was issued at the fixture's time for an hour; the clock is now months later.
    const expired = await me(token);
    assert.equal(expired.status, 400);
    assert.equal(expired.body.error.code, 190);
    assert.equal(expired.body.error.error_subcode, 463);

    await control('POST', '/clock', { now: fixture.now });
    const posted = await server.form('/v2.4/me/feed', { access_token: token, message: 'On the clock', fields: 'created_time' });
    assert.equal(posted.body.created_time, '2025-10-09T08:53:20+0000');
    assert.equal((await me(token)).status, 200);
    const advanced = await control('POST', '/clock', { advance: '1h' });
    assert.equal(advanced.body.unix, fixture.now + 3600);
    const late = await me(token);
    assert.equal(late.body.error.error_subcode, 463);
    assert.match(late.headers.get('www-authenticate') ?? '', /invalid_token/);

    const bad = await control('POST', '/clock', { advance: 'soon' });
    assert.equal(bad.status, 400);
    const real = await control('DELETE', '/clock');
    assert.equal(real.body.frozen, false);
    assert.equal(real.body.offset, 0, 'a clock on real time is not moved');
    assert.ok(Math.abs(real.body.unix - Date.now() / 1000) < 60);
    const ahead = await control('POST', '/clock', { advance: '2h' });
    assert.equal(ahead.body.frozen, false);
    assert.equal(ahead.body.offset, 7200, 'a running clock says how far it was moved');
    await control('POST', '/clock', { now: fixture.now });
  });

  it('answers each preset fault with the real body and status, and stops after `times`', async () => {
    const presets: Array<[string, number, number, Record<string, unknown>]> = [
      ['app_rate_limit', 403, 4, { message: '(#4) Application request limit reached', type: 'OAuthException', is_transient: true }],
      ['user_rate_limit', 403, 17, { message: '(#17) User request limit reached', is_transient: true }],
      ['page_rate_limit', 403, 32, { message: '(#32) Page request limited reached', is_transient: true }],
      ['api_rate_limit', 400, 613, { message: '(#613) Calls to this api have exceeded the rate limit.', is_transient: true }],
      ['server_error', 500, 1, { message: 'An unknown error has occurred.', is_transient: true }],
      ['temporarily_unavailable', 500, 2, { is_transient: true }],
      ['feed_rate_limit', 400, 341, { message: '(#341) Feed action request limit reached', is_transient: true }],
      ['expired_session', 400, 190, { error_subcode: 463 }],
      ['invalidated_session', 400, 190, { error_subcode: 460 }],
      ['permission_denied', 403, 200, { message: "(#200) The user hasn't authorized the application to perform this action" }],
    ];
    for (const [preset, status, code, fields] of presets) {
      const created = await control('POST', '/faults', { match: { method: 'GET', path: '/me' }, preset, times: 2 });
      assert.equal(created.status, 200, preset);
      assert.match(created.body.id, /^[0-9a-f]{12}$/);
      let authenticate = '';
      for (let round = 0; round < 2; round += 1) {
        const failed = await me();
        authenticate = failed.headers.get('www-authenticate') ?? '';
        assert.equal(failed.status, status, preset);
        assert.equal(failed.body.error.code, code, preset);
        for (const [key, value] of Object.entries(fields)) assert.deepEqual(failed.body.error[key], value, `${preset} ${key}`);
        assert.match(failed.body.error.fbtrace_id, /\S/);
      }
      if (code === 190) assert.match(authenticate, /^OAuth "Facebook Platform" "invalid_token" "Error validating access token/);
      assert.equal((await me()).status, 200, `${preset} stops after its times`);
      const listed = (await control('GET', '/faults')).body.data;
      assert.equal(listed.find((fault: { id: string }) => fault.id === created.body.id).fired, 2);
      assert.equal((await control('DELETE', '/faults')).status, 200);
    }
  });

  it('matches faults by method, path glob, app and user, with a custom error', async () => {
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const created = await control('POST', '/faults', {
      match: { path: '/me/*', user_id: fixture.scoped(fixture.users.alice) },
      error: { code: 1234, error_subcode: 99, status: 503, message: 'Injected', is_transient: false },
    });
    assert.equal((await me()).status, 200, 'the glob needs a second segment');
    const failed = await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken });
    assert.equal(failed.status, 503);
    assert.deepEqual(
      { ...failed.body.error, fbtrace_id: undefined },
      { message: 'Injected', type: 'OAuthException', is_transient: false, code: 1234, error_subcode: 99, fbtrace_id: undefined },
    );
    assert.equal((await server.get('/v2.4/me/friends', { access_token: bob })).status, 200, 'another user is not matched');
    assert.equal((await control('DELETE', `/faults/${created.body.id}`)).status, 200);
    assert.equal((await control('DELETE', `/faults/${created.body.id}`)).status, 404);
    assert.equal((await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken })).status, 200);

    const invalid = await control('POST', '/faults', { preset: 'no_such_thing' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.error.message, /preset must be one of/);
  });

  it('keeps a journal of requests and batch operations with every secret redacted, filtered and cleared on demand', async () => {
    await control('DELETE', '/requests');
    await me();
    await server.get('/v2.4/me/bogus', { access_token: fixture.aliceToken, fields: 'id' });
    const batch = JSON.stringify([{ method: 'GET', relative_url: `me?fields=id&client_secret=${'ab'.repeat(32)}` }]);
    assert.equal((await server.form('/v2.4/', { access_token: fixture.aliceToken, batch })).status, 200);
    const all = (await control('GET', '/requests')).body.data;
    assert.deepEqual(
      all.map((entry: { method: string; path: string; status: number; in_batch?: boolean }) => [entry.method, entry.path, entry.status, entry.in_batch ?? false]),
      [
        ['GET', '/me', 200, false],
        ['GET', '/me/bogus', 400, false],
        ['GET', '/me', 200, true],
        ['POST', '/', 200, false],
      ],
    );
    assert.deepEqual(
      { ...all[0], duration_ms: 0, trace_id: '' },
      {
        seq: all[0].seq,
        time: '2025-10-09T08:53:20+0000',
        method: 'GET',
        path: '/me',
        params: { access_token: '[redacted]' },
        status: 200,
        duration_ms: 0,
        app_id: String(fixture.app.id),
        user_id: fixture.scoped(fixture.users.alice),
        trace_id: '',
      },
    );
    assert.equal(all[1].error_code, 2500);
    assert.equal(all[2].params.client_secret, '[redacted]');
    const text = JSON.stringify(all);
    assert.ok(!text.includes(fixture.aliceToken) && !text.includes('abababab'), 'no token or secret is kept');

    assert.deepEqual((await control('GET', '/requests?status=400')).body.data.map((entry: { path: string }) => entry.path), ['/me/bogus']);
    assert.equal((await control('GET', '/requests?limit=1')).body.data[0].path, '/');
    assert.equal((await control('GET', `/requests?since=${all[1].seq}`)).body.data.length, 2);
    assert.equal((await control('GET', '/requests?app_id=999999')).body.data.length, 0);
    assert.equal((await control('GET', `/requests?app_id=${fixture.app.id}`)).body.data.length, 3, 'the batch itself names no caller');
    assert.equal((await control('GET', '/requests?limit=x')).status, 400);
    await control('DELETE', '/requests');
    assert.deepEqual((await control('GET', '/requests')).body, { data: [] });
  });

  it('journals a request with a huge parameter at once, keeping its start, and goes on serving', { timeout: 60_000 }, async () => {
    await control('DELETE', '/requests');
    // One 200 kB name: searching it whole for credentials took minutes, holding every other request.
    const huge = `${'a'.repeat(200_000)},access_token=${'s'.repeat(40)}`;
    const heavy = await server.form('/v2.4/me', { access_token: fixture.aliceToken, fields: huge, note: `x=1&client_secret=${'b'.repeat(40)}` });
    assert.equal(heavy.status, 400);
    assert.equal((await me()).status, 200);
    const [entry] = (await control('GET', '/requests')).body.data;
    assert.equal(entry.params.fields, `${'a'.repeat(500)}…`);
    assert.equal(entry.params.note, 'x=1&client_secret=[redacted]');
  });

  it('injects faults into batch operations as into requests sent alone', async () => {
    await control('POST', '/faults', { match: { path: '/me/friends' }, preset: 'user_rate_limit', times: 1 });
    const batch = JSON.stringify([
      { method: 'GET', relative_url: 'me?fields=id' },
      { method: 'GET', relative_url: 'me/friends?limit=1' },
      { method: 'GET', relative_url: 'me/friends?limit=1' },
    ]);
    const answered = await server.form('/v2.4/', { access_token: fixture.aliceToken, batch });
    assert.equal(answered.status, 200);
    assert.deepEqual(answered.body.map((item: { code: number }) => item.code), [200, 403, 200]);
    assert.equal(JSON.parse(answered.body[1].body).error.code, 17);
    await control('DELETE', '/faults');
  });

  it('injects faults into the token endpoint and journals debug_token, alone and in a batch', async () => {
    await control('DELETE', '/requests');
    const client = { grant_type: 'client_credentials', client_id: String(fixture.app.id), client_secret: fixture.app.secret };
    await control('POST', '/faults', { match: { path: '/oauth/access_token', app_id: String(fixture.app.id) }, preset: 'server_error', times: 1 });
    const faulted = await server.get('/v2.4/oauth/access_token', client);
    assert.equal(faulted.status, 500);
    assert.equal(faulted.body.error.code, 1);
    const issued = await server.get('/v2.4/oauth/access_token', client);
    assert.equal(issued.status, 200, 'the fault fired once');
    const appToken: string = issued.body.access_token;

    assert.equal((await server.get('/v2.4/debug_token', { input_token: fixture.aliceToken, access_token: appToken })).body.data.is_valid, true);
    const batch = JSON.stringify([{ method: 'GET', relative_url: `debug_token?input_token=${fixture.aliceToken}` }]);
    const batched = await server.form('/v2.4/', { access_token: appToken, batch });
    assert.equal(JSON.parse(batched.body[0].body).data.user_id, fixture.scoped(fixture.users.alice));

    const journal = (await control('GET', '/requests')).body.data;
    assert.deepEqual(
      journal.map((entry: { method: string; path: string; status: number; app_id?: string; in_batch?: boolean }) => [
        entry.method, entry.path, entry.status, entry.app_id, entry.in_batch ?? false,
      ]),
      [
        ['GET', '/oauth/access_token', 500, String(fixture.app.id), false],
        ['GET', '/oauth/access_token', 200, String(fixture.app.id), false],
        ['GET', '/debug_token', 200, String(fixture.app.id), false],
        ['GET', '/debug_token', 200, String(fixture.app.id), true],
        ['POST', '/', 200, undefined, false],
      ],
    );
    assert.equal(journal[0].params.client_secret, '[redacted]');
    await control('DELETE', '/faults');
  });

  it('answers only loopback addresses without an admin key, and takes JSON POSTs only', async () => {
    const remote = await server.app.inject({ method: 'GET', url: '/_loom/clock', remoteAddress: '203.0.113.7' });
    assert.equal(remote.statusCode, 403);
    assert.equal(JSON.parse(remote.body).error.code, 10);
    const local = await server.app.inject({ method: 'GET', url: '/_loom/clock', remoteAddress: '127.0.0.1' });
    assert.equal(local.statusCode, 200);
    const form = await server.form('/_loom/reset', {});
    assert.equal(form.status, 400);
    assert.equal((await control('GET', '/clock')).headers.get('access-control-allow-origin'), null);
  });

  it('leaves nothing to close behind an in-process request it refused', async () => {
    // A refused request whose body was never read has its connection closed a moment after the
    // answer; an injected request has none, and closing it must not throw once that moment passes.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const remote = await server.app.inject({ method: 'GET', url: '/_loom/clock', remoteAddress: '203.0.113.7' });
      assert.equal(remote.statusCode, 403);
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS + 500));
    } finally {
      process.off('uncaughtException', record);
    }
    assert.deepEqual(uncaught, []);
  });

  it('with an admin key, needs that key from every address and never takes a Graph token for it', async () => {
    const keyed = await startServer(fixture.store, { clock, adminKey: 'a-long-admin-key' });
    try {
      const call = (authorization?: string) =>
        keyed.fetch(`${keyed.url}/_loom/clock`, authorization ? { headers: { authorization } } : {});
      assert.equal((await call()).status, 403);
      assert.equal((await call(`Bearer ${fixture.aliceToken}`)).status, 403);
      assert.equal((await call(`Bearer ${fixture.app.id}|${fixture.app.secret}`)).status, 403);
      assert.equal((await call('Bearer a-long-admin-key')).status, 200);
      const remote = await keyed.app.inject({ method: 'GET', url: '/_loom/clock', remoteAddress: '203.0.113.7', headers: { authorization: 'Bearer a-long-admin-key' } });
      assert.equal(remote.statusCode, 200);
    } finally {
      await keyed.close();
    }
  });

  it('shares the clock, faults and restored graphs with every other process on the database', async () => {
    const otherStore = await openLocation(fixture.path);
    const other = await startServer(otherStore, { clock: Clock.frozenAt(fixture.now) });
    try {
      await control('POST', '/snapshots', { name: 'shared' });
      const posted = await other.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: 'Seen by both' });
      assert.equal(posted.status, 200);
      await control('POST', '/snapshots/shared/restore', {});
      assert.equal((await other.get(`/v2.4/${posted.body.id}`, { access_token: fixture.aliceToken })).status, 400, 'the other process reads the restored graph');

      await control('POST', '/clock', { advance: '2h' });
      assert.equal((await other.get('/v2.4/me', { access_token: fixture.aliceToken })).body.error.error_subcode, 463);
      await control('POST', '/clock', { now: fixture.now });
      await control('POST', '/faults', { preset: 'server_error', times: 1 });
      assert.equal((await other.get('/v2.4/me', { access_token: fixture.aliceToken })).status, 500);
      assert.equal((await me()).status, 200, 'a fault that fired its times elsewhere is spent here too');
    } finally {
      await other.close();
      await otherStore.close();
    }
  });
});
