import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { useCallCountingServer } from '../helpers/counted-server.js';
import { openLocation } from '../helpers/test-store.js';

// A read asked again reads the graph again: whatever changed since, by this process or another,
// shows on the very next read, though a process keeps the objects and counts it read lately.
describe('reads asked again', () => {
  const counted = useCallCountingServer();
  const others: Store[] = [];
  after(async () => {
    for (const store of others) await store.close();
  });

  const fields = 'id,name,friends.limit(2){name},posts.limit(2){message,likes.summary(true)}';
  const readMe = () => counted.server.get('/v2.4/me', { access_token: counted.fixture.aliceToken, fields });
  /** The store calls of a request, besides the versions every request reads first. */
  const graphCalls = () => counted.calls.filter((name) => name !== 'versions');

  it('reads the graph each time, and answers the same bytes and ETag while nothing changed', async () => {
    await counted.countFromCold();
    const first = await readMe();
    assert.equal(first.status, 200, first.text);
    for (let i = 0; i < 2; i++) {
      counted.calls.length = 0;
      const again = await readMe();
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('etag'), first.headers.get('etag'));
      assert.notEqual(again.headers.get('x-fb-trace-id'), first.headers.get('x-fb-trace-id'), 'each answer has its own trace id');
      assert.ok(graphCalls().includes('getPagesWithObjects'), JSON.stringify(counted.calls));
    }
    const unchanged = await counted.server.fetch(`${counted.server.url}/v2.4/me?${new URLSearchParams({ access_token: counted.fixture.aliceToken, fields })}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(unchanged.status, 304);
  });

  it('shows a write made through the server on the next read', async () => {
    const before = await readMe();
    const posted = await counted.server.form('/v2.4/me/feed', { access_token: counted.fixture.aliceToken, message: 'Written just now' });
    assert.equal(posted.status, 200, posted.text);
    const after = await readMe();
    assert.notEqual(after.text, before.text);
    assert.equal(after.body.posts.data[0].message, 'Written just now');
  });

  it('shows a change another connection to the database commits on the next read', async () => {
    const before = await readMe();
    assert.equal(before.body.name, 'Alice Arden');
    // Another process on the same database: a store of its own, not the one served.
    const other = await openLocation(counted.fixture.path);
    others.push(other);
    await other.write([{ op: 'updateObject', id: counted.fixture.users.alice, data: { name: 'Alice Renamed' }, updatedTime: counted.fixture.now }]);
    const after = await readMe();
    assert.equal(after.body.name, 'Alice Renamed');
  });

  it('shows a write an earlier operation of a batch made to a later one', async () => {
    const latest = { method: 'GET', relative_url: 'me?fields=posts.limit(1){message}' };
    const batch = [latest, { method: 'POST', relative_url: 'me/feed', body: 'message=Written in the batch' }, latest];
    const reply = await counted.server.form('/v2.4/', { access_token: counted.fixture.aliceToken, batch: JSON.stringify(batch) });
    assert.equal(reply.status, 200, reply.text);
    const [before, , after] = reply.body.map((item: { body: string }) => JSON.parse(item.body));
    assert.notEqual(before.posts.data[0].message, 'Written in the batch');
    assert.equal(after.posts.data[0].message, 'Written in the batch');
  });

  it('applies faults to a read asked again, and journals it', async () => {
    const control = (method: string, path: string, body?: unknown) =>
      counted.server.fetch(`${counted.server.url}/_loom${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
    await readMe();
    assert.equal((await readMe()).status, 200);
    const fault = await control('POST', '/faults', { match: { method: 'GET', path: '/me' }, preset: 'temporarily_unavailable', times: 1 });
    assert.equal(fault.status, 200, fault.text);
    const failed = await readMe();
    assert.equal(failed.status, 500, failed.text);
    assert.equal(failed.body.error.code, 2);
    const served = await readMe();
    assert.equal(served.status, 200, served.text);
    const journal = (await control('GET', '/requests?limit=2')).body.data;
    assert.deepEqual(
      journal.map((entry: { status: number }) => entry.status).sort(),
      [200, 500],
      JSON.stringify(journal),
    );
  });

  it('checks the token of a read asked again: a revoked token is refused on the next request', async () => {
    const token = await counted.fixture.tokenFor(counted.fixture.users.bob, ['public_profile']);
    const read = () => counted.server.get('/v2.4/me', { access_token: token, fields: 'id,name' });
    assert.equal((await read()).status, 200);
    assert.equal((await read()).status, 200);
    const revoked = await counted.server.form('/v2.4/me/permissions', { access_token: token }, 'DELETE');
    assert.equal(revoked.status, 200, revoked.text);
    const refused = await read();
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.code, 190);
  });
});
