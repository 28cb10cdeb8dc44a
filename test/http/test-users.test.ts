import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { verifyPassword } from '../../src/auth/passwords.js';
import { hashToken, SHORT_LIVED_SECONDS } from '../../src/auth/tokens.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { selectRows, storedBytes } from '../helpers/test-store.js';
import { Clock } from '../../src/clock/clock.js';

const SUCCESS = '{"success":true}';

describe('test users over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  let path: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    path = `/v2.4/${fixture.app.id}/accounts/test-users`;
  });

  const create = (fields: Record<string, string> = {}) => server.form(path, { access_token: appToken, ...fields });
  const internalId = (id: string) => scopedIdsFor(fixture.app).unscope(id)!;

  function assertError(reply: Reply, status: number, code: number, message?: RegExp) {
    assert.equal(reply.status, status, reply.text);
    assert.equal(reply.body.error.code, code, reply.text);
    if (message) assert.match(reply.body.error.message, message);
  }

  it('creates an installed test user with the default permissions and a working two-hour token', async () => {
    const reply = await create();
    assert.equal(reply.status, 200, reply.text);
    const user = reply.body;
    assert.deepEqual(Object.keys(user), ['id', 'access_token', 'login_url', 'email', 'password']);
    assert.equal(internalId(user.id) > 0, true, 'the id is app-scoped');
    assert.match(user.login_url, new RegExp(`^${server.url}/checkpoint/test-user-login/${user.id}/\\?code=LG[\\w-]{43}$`));
    assert.match(user.email, /^[a-z0-9_]+_\d{10}@tfbnw\.net$/);
    assert.ok(user.password.length >= 12);

    const me = await server.get('/v2.4/me', { access_token: user.access_token, fields: 'id,name,email,locale' });
    assert.equal(me.body.id, user.id);
    assert.match(me.body.name, /^\S+ \S+$/, 'a generated first and last name');
    assert.equal(me.body.email, undefined, 'email is not among the default permissions');
    assert.equal(me.body.locale, 'en_US');
    const permissions = await server.get('/v2.4/me/permissions', { access_token: user.access_token });
    assert.deepEqual(permissions.body.data, [
      { permission: 'public_profile', status: 'granted' },
      { permission: 'user_friends', status: 'granted' },
    ]);
    const record = await fixture.store.findToken(hashToken(user.access_token));
    assert.equal(record?.expiresAt, fixture.now + SHORT_LIVED_SECONDS);
  });

  it('gives test users tokens of the configured lifetime', async () => {
    const short = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), tokenLifetime: 90 });
    try {
      const user = (await short.form(path, { access_token: appToken })).body;
      const record = await fixture.store.findToken(hashToken(user.access_token));
      assert.equal(record?.expiresAt, fixture.now + 90);
    } finally {
      await short.close();
    }
  });

  it('keeps the password only as a scrypt hash and the token only as its SHA-256', async () => {
    const user = (await create({ name: 'Secret Keeper' })).body;
    const credentials = await fixture.store.getCredentials(internalId(user.id));
    assert.equal(credentials?.email, user.email);
    assert.match(credentials!.passwordHash, /^scrypt\$/);
    assert.equal(await verifyPassword(user.password, credentials!.passwordHash), true);
    const bytes = await storedBytes(fixture.store, fixture.path);
    for (const secret of [user.password, user.access_token]) {
      assert.ok(!bytes.includes(secret), 'no secret in clear in the database files');
    }
    assert.ok(bytes.includes(hashToken(user.access_token)), 'the token hash is there');
  });

  it('honours name, locale and permissions, and makes no token when not installed', async () => {
    const named = (await create({ name: 'Zoë  van Dijk', locale: 'nl_NL', permissions: 'email, user_posts' })).body;
    const me = await server.get('/v2.4/me', { access_token: named.access_token, fields: 'name,first_name,last_name,locale,email' });
    assert.deepEqual(me.body, { name: 'Zoë van Dijk', first_name: 'Zoë', last_name: 'Dijk', locale: 'nl_NL', email: named.email, id: named.id });
    const record = await fixture.store.findToken(hashToken(named.access_token));
    assert.deepEqual(record?.scopes, ['public_profile', 'email', 'user_posts']);

    const absent = await create({ installed: 'false', name: 'Not Installed' });
    assert.deepEqual(Object.keys(absent.body), ['id', 'login_url', 'email', 'password']);
    assert.equal((await fixture.store.getGrants(fixture.app.id, [internalId(absent.body.id)])).size, 0);
    const read = await server.get(`/v2.4/${absent.body.id}`, { access_token: appToken, fields: 'name' });
    assert.equal(read.body.name, 'Not Installed');
  });

  it('refuses user tokens with (#15), other apps with (#200), and bad parameters with (#100)', async () => {
    assertError(await server.form(path, { access_token: fixture.aliceToken }), 400, 15, /^\(#15\) This method must be called with an app access_token\.$/);
    assertError(await server.get(path, { access_token: fixture.aliceToken }), 400, 15);
    const other = await fixture.store.createApp({ name: 'Other', secret: 'other-secret', idKey: 'ab'.repeat(16), createdTime: fixture.now });
    assertError(await server.form(path, { access_token: `${other.id}|other-secret` }), 403, 200);
    assertError(await create({ installed: 'maybe' }), 400, 100, /installed/);
    assertError(await create({ locale: 'english' }), 400, 100, /locale/);
    assertError(await create({ permissions: 'public_profile,read_minds' }), 400, 100, /^\(#100\) Invalid permission: read_minds$/);
    assertError(await create({ name: 'x'.repeat(101) }), 400, 100);
    assertError(await create({ name: '   ' }), 400, 100);
  });

  it('lists test users with cursor paging, a fresh token for installed ones and none for the others', async () => {
    const app = await fixture.store.createApp({ name: 'Lister', secret: 'lister-secret', idKey: 'cd'.repeat(16), createdTime: fixture.now });
    const token = `${app.id}|lister-secret`;
    const listPath = `/v2.4/${app.id}/accounts/test-users`;
    const made: any[] = [];
    for (const installed of ['true', 'false', 'true', 'true', 'false']) {
      made.push((await server.form(listPath, { access_token: token, installed })).body);
    }
    const seen: any[] = [];
    let page = await server.get(listPath, { access_token: token, limit: '2' });
    assert.deepEqual(Object.keys(page.body), ['data', 'paging']);
    assert.deepEqual(Object.keys(page.body.paging), ['cursors', 'next']);
    for (;;) {
      seen.push(...page.body.data);
      if (!page.body.paging?.next) break;
      assert.ok(page.body.paging.next.startsWith(`${server.url}/v2.4/${app.id}/accounts?`));
      page = await server.fetch(page.body.paging.next);
    }
    assert.deepEqual(seen.map((user) => user.id), made.map((user) => user.id).reverse(), 'newest first, each once');
    for (const listed of seen) {
      const original = made.find((user) => user.id === listed.id);
      assert.equal(new URL(listed.login_url).pathname, new URL(original.login_url).pathname);
      if (original.access_token === undefined) {
        assert.deepEqual(Object.keys(listed), ['id', 'login_url']);
        continue;
      }
      assert.deepEqual(Object.keys(listed), ['id', 'access_token', 'login_url']);
      assert.notEqual(listed.access_token, original.access_token, 'a new token, since tokens are stored hashed');
      assert.equal((await server.get('/v2.4/me', { access_token: listed.access_token, fields: 'id' })).body.id, listed.id);
    }
    const plain = await server.get(`/v2.4/${app.id}/accounts`, { access_token: token });
    assert.deepEqual(plain.body.data.map((user: { id: string }) => user.id), seen.map((user) => user.id));
    assertError(await server.get(`/v2.4/${app.id}/accounts/bogus`, { access_token: token }), 400, 2500);
    const nested = await server.get(`/v2.4/${app.id}`, { access_token: token, fields: 'accounts.limit(1)' });
    assert.equal(nested.body.accounts.data[0].id, seen[0].id);
    const byUser = await server.get(`/v2.4/${fixture.app.id}`, { access_token: fixture.aliceToken, fields: 'name,accounts' });
    assert.deepEqual(Object.keys(byUser.body), ['name', 'id'], 'a person sees no test users');
  });

  it('renames a test user and changes their password', async () => {
    const user = (await create({ name: 'Old Name' })).body;
    const renamed = await server.form(`/v2.4/${user.id}`, { access_token: appToken, name: 'Prince' });
    assert.equal(renamed.text, SUCCESS);
    const read = await server.get(`/v2.4/${user.id}`, { access_token: appToken, fields: 'name,first_name,last_name' });
    assert.deepEqual(read.body, { name: 'Prince', first_name: 'Prince', id: user.id });

    const changed = await server.form(`/v2.4/${user.id}`, { access_token: appToken, password: 'correct horse battery' });
    assert.equal(changed.text, SUCCESS);
    const credentials = await fixture.store.getCredentials(internalId(user.id));
    assert.equal(credentials?.email, user.email, 'the email stays');
    assert.equal(await verifyPassword('correct horse battery', credentials!.passwordHash), true);
    assert.equal(await verifyPassword(user.password, credentials!.passwordHash), false);

    assertError(await server.form(`/v2.4/${user.id}`, { access_token: appToken }), 400, 100, /name or password/);
    assertError(await server.form(`/v2.4/${user.id}`, { access_token: appToken, password: 'short' }), 400, 100);
    assertError(await server.form(`/v2.4/${user.id}`, { access_token: user.access_token, name: 'Self' }), 400, 100);
    const alice = fixture.scoped(fixture.users.alice);
    assertError(await server.form(`/v2.4/${alice}`, { access_token: appToken, name: 'Hijacked' }), 403, 200);
  });

  it('deletes a test user with everything they own, in one go', async () => {
    const scopes = 'public_profile,user_friends,user_posts,publish_actions';
    const doomed = (await create({ name: 'Doomed User', permissions: scopes })).body;
    const friend = (await create({ name: 'Staying Friend', permissions: scopes })).body;
    const popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const likes = async () => (await server.get(`/v2.4/${popular}/likes`, { access_token: fixture.aliceToken, summary: 'true', limit: '0' })).body.summary.total_count;
    const likesBefore = await likes();

    await server.form(`/v2.4/${doomed.id}/friends/${friend.id}`, { access_token: doomed.access_token });
    await server.form(`/v2.4/${friend.id}/friends/${doomed.id}`, { access_token: friend.access_token });
    const post = (await server.form('/v2.4/me/feed', { access_token: doomed.access_token, message: 'Soon gone' })).body.id;
    const comment = (await server.form(`/v2.4/${popular}/comments`, { access_token: doomed.access_token, message: 'Nice' })).body.id;
    const reply = (await server.form(`/v2.4/${post}/comments`, { access_token: friend.access_token, message: 'Bye' })).body.id;
    for (const id of [post, comment, reply]) assert.match(id, /^\d+(_\d+)?$/);
    assert.equal((await server.form(`/v2.4/${popular}/likes`, { access_token: doomed.access_token })).text, SUCCESS);
    const friendsOf = async () => (await server.get('/v2.4/me/friends', { access_token: friend.access_token })).body.summary.total_count;
    assert.equal(await friendsOf(), 1);
    assert.equal(await likes(), likesBefore + 1);

    const deleted = await server.fetch(`${server.url}/v2.4/${doomed.id}?access_token=${encodeURIComponent(appToken)}`, { method: 'DELETE' });
    assert.equal(deleted.text, SUCCESS);

    assertError(await server.get(`/v2.4/${doomed.id}`, { access_token: appToken }), 400, 100, /does not exist/);
    assertError(await server.get('/v2.4/me', { access_token: doomed.access_token }), 400, 190);
    for (const gone of [post, comment, reply]) {
      assertError(await server.get(`/v2.4/${gone}`, { access_token: fixture.aliceToken }), 400, 100);
    }
    assert.equal(await likes(), likesBefore);
    assert.equal(await friendsOf(), 0);
    const internal = internalId(doomed.id);
    assert.equal(await fixture.store.getCredentials(internal), undefined);
    assert.equal((await fixture.store.getGrants(fixture.app.id, [internal])).size, 0);
    const listed = await server.get(path, { access_token: appToken, limit: '100' });
    assert.ok(!listed.body.data.some((user: { id: string }) => user.id === doomed.id));
  });

  it('never lets simultaneous creations take an app past its limit of test users', async () => {
    const app = await fixture.store.createApp({ name: 'Crowded', secret: 'crowded-secret', idKey: '56'.repeat(16), createdTime: fixture.now });
    const token = `${app.id}|crowded-secret`;
    const listed = async () => (await fixture.store.getCounts('test_users', [app.id])).get(app.id);
    // 499 test users written straight to the store: one place left.
    await fixture.store.write(
      Array.from({ length: 499 }, (_, i): WriteOp[] => [
        { op: 'createObject', object: { type: 'user', owner: null, createdTime: fixture.now, data: { name: `Filler ${i}` } } },
        { op: 'addAssoc', type: 'test_users', id1: app.id, id2: { ref: 2 * i }, time: fixture.now },
      ]).flat(),
    );
    assert.equal(await listed(), 499);
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) => server.form(`/v2.4/${app.id}/accounts/test-users`, { access_token: token, name: `Racer ${i}` })),
    );
    const made = replies.filter((reply) => reply.status === 200);
    assert.equal(made.length, 1, replies.map((reply) => reply.text).join('\n'));
    for (const refused of replies.filter((reply) => reply.status !== 200)) {
      assertError(refused, 400, 100, /most test users allowed \(500\)/);
    }
    assert.equal(await listed(), 500);
    assert.equal((await server.get('/v2.4/me', { access_token: made[0]!.body.access_token, fields: 'name' })).status, 200);
    const names = new Set(replies.map((_, i) => `Racer ${i}`));
    const users = await selectRows<{ id: number }>(fixture.store, "SELECT id FROM objects WHERE type = 'user' AND owner IS NULL");
    const racers = [...(await fixture.store.getObjects(users.map((user) => Number(user.id)))).values()].filter((user) => names.has(String(user.data.name)));
    assert.equal(racers.length, 1, 'the refused creations left no user behind');
  });

  it('deletes only its own test users, and only with an app token', async () => {
    const user = (await create()).body;
    const alice = fixture.scoped(fixture.users.alice);
    const remove = (id: string, token: string) =>
      server.fetch(`${server.url}/v2.4/${id}?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });
    assertError(await remove(alice, appToken), 403, 200);
    assertError(await remove(user.id, fixture.aliceToken), 403, 200);
    const other: AppRecord = await fixture.store.createApp({ name: 'Stranger', secret: 'stranger', idKey: 'ef'.repeat(16), createdTime: fixture.now });
    assertError(await remove(user.id, `${other.id}|stranger`), 400, 100, /does not exist/);
    const sameUserThere = scopedIdsFor(other).scope(internalId(user.id));
    assertError(await remove(sameUserThere, `${other.id}|stranger`), 403, 200);
    assert.equal((await server.get(`/v2.4/${user.id}`, { access_token: appToken })).status, 200, 'still there');
  });
});
