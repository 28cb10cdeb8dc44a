import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('ETags and output options over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
  });

  const withHeaders = (path: string, params: Record<string, string>, headers: Record<string, string>) =>
    server.fetch(`${server.url}${path}?${new URLSearchParams(params)}`, { headers });

  it('tags every 200 read with the SHA-1 of its bytes and answers 304 to a client that holds them', async () => {
    const params = { access_token: token, fields: 'name,friends.limit(2)' };
    const first = await server.get('/v2.4/me', params);
    const etag = first.headers.get('etag');
    assert.equal(etag, `"${createHash('sha1').update(first.text).digest('hex')}"`);

    for (const ifNoneMatch of [etag, `"nope", ${etag}`, '*', `W/${etag}`]) {
      const again = await withHeaders('/v2.4/me', params, { 'if-none-match': ifNoneMatch });
      assert.equal(again.status, 304, ifNoneMatch);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag);
    }
    const changed = await withHeaders('/v2.4/me', { ...params, fields: 'name' }, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);

    const write = await server.form('/v2.4/me/feed', { access_token: token, message: 'No tag for writes' });
    assert.equal(write.headers.get('etag'), null);
    const error = await server.get('/v2.4/404404', { access_token: token });
    assert.equal(error.headers.get('etag'), null);
  });

  it('indents with three spaces for pretty=1', async () => {
    const compact = await server.get('/v2.4/me', { access_token: token, fields: 'name,location' });
    const pretty = await server.get('/v2.4/me', { access_token: token, fields: 'name,location', pretty: '1' });
    assert.equal(pretty.text, JSON.stringify(compact.body, null, 3));
    assert.match(pretty.text, /^\{\n {3}"name"/);
  });

  it('wraps answers for a safe JSONP callback and refuses any other name without writing it back', async () => {
    const reply = await server.get('/v2.4/me', { access_token: token, fields: 'name', callback: 'jQuery.cb_1$' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-type'), 'text/javascript; charset=UTF-8');
    assert.equal(reply.text, `/**/ jQuery.cb_1$({"name":"Alice Arden","id":"${fixture.scoped(fixture.users.alice)}"});`);
    const failed = await server.get('/v2.4/404404', { access_token: token, callback: 'handle' });
    assert.match(failed.text, /^\/\*\*\/ handle\(\{"error":/);

    for (const hostile of ['alert(1)//', '<script>x</script>', 'a..b', '1abc', 'a.b(', 'x;y', 'evil\u2028name']) {
      const refused = await server.get('/v2.4/me', { access_token: token, callback: hostile });
      assert.equal(refused.status, 400, hostile);
      assert.equal(refused.headers.get('content-type'), 'application/json; charset=UTF-8');
      assert.equal(refused.body.error.code, 100);
      assert.ok(!refused.text.includes(hostile) && !refused.text.includes('alert') && !refused.text.includes('script'), refused.text);
    }
  });

  it('answers 200 with the same body for suppress_http_code=1', async () => {
    const plain = await server.get('/v2.4/404404', { access_token: token });
    const suppressed = await server.get('/v2.4/404404', { access_token: token, suppress_http_code: '1' });
    assert.equal(plain.status, 400);
    assert.equal(suppressed.status, 200);
    assert.deepEqual({ ...suppressed.body.error, fbtrace_id: 0 }, { ...plain.body.error, fbtrace_id: 0 });
    const refusedCallback = await server.get('/v2.4/me', { access_token: token, callback: 'a(b)', suppress_http_code: '1' });
    assert.equal(refusedCallback.status, 200);
    assert.equal(refusedCallback.body.error.code, 100);
  });

  it('writes times as unix seconds for date_format=U and by PHP date() letters otherwise', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const fields = 'created_time,message,comments.limit(1){created_time}';
    const iso = await server.get(`/v2.4/${post}`, { access_token: token, fields });
    const unix = await server.get(`/v2.4/${post}`, { access_token: token, fields, date_format: 'U' });
    const seconds = fixture.now - 10 * 86_400;
    assert.equal(iso.body.created_time, new Date(seconds * 1000).toISOString().slice(0, 19) + '+0000');
    assert.equal(unix.body.created_time, seconds);
    assert.equal(typeof unix.body.comments.data[0].created_time, 'number');
    assert.equal(unix.body.message, 'Hello, loom');
    const patterned = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'created_time', date_format: 'D, d M Y H:i:s \\Y y n/j g A' });
    assert.equal(patterned.body.created_time, 'Mon, 29 Sep 2025 08:53:20 Y 25 9/29 8 AM');
    const long = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'created_time', date_format: 'l jS F, N w G h a e O P' });
    assert.equal(long.body.created_time, 'Monday 29th September, 1 1 8 08 am UTC +0000 +00:00');
  });

  it('adds __debug__ messages for debug=all|info|warning, naming a field left out for a missing permission', async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const plain = await server.get(`/v2.4/${bob}`, { access_token: token, fields: 'name,birthday' });
    assert.deepEqual(plain.body, { name: 'Bob Brook', id: bob });
    for (const level of ['all', 'info', 'warning']) {
      const debugged = await server.get(`/v2.4/${bob}`, { access_token: token, fields: 'name,birthday', debug: level });
      assert.equal(debugged.body.name, 'Bob Brook');
      assert.equal(debugged.body.birthday, undefined);
      const messages = debugged.body.__debug__.messages;
      assert.equal(messages.length, 1, level);
      assert.match(messages[0].message, /'birthday'.*'user_birthday'/);
      assert.equal(messages[0].type, 'warning');
    }
    const clean = await server.get('/v2.4/me', { access_token: token, fields: 'name', debug: 'all' });
    assert.deepEqual(clean.body.__debug__, { messages: [] });
  });

  it('keeps ETags, callbacks and other output options away from batch answers that do not ask for them', async () => {
    const batch = await server.form('/v2.4/', {
      access_token: token,
      batch: JSON.stringify([{ method: 'GET', relative_url: 'me?fields=name&pretty=1&date_format=U' }]),
    });
    assert.equal(batch.status, 200, batch.text);
    assert.equal(batch.headers.get('etag'), null, 'a batch is a POST');
    assert.equal(batch.body[0].body, JSON.stringify({ name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) }, null, 3));
  });
});
