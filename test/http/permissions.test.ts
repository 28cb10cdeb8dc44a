import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('/me/permissions', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let bobToken: string;
  let appToken: string;
  let bob: string;

  before(async () => {
    ({ fixture, server } = served);
    bobToken = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_friends', 'user_posts']);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    bob = fixture.scoped(fixture.users.bob);
  });

  const remove = (path: string, token: string) => server.fetch(`${server.url}${path}?access_token=${encodeURIComponent(token)}`, { method: 'DELETE' });

  it('lists each answer as {permission, status}, public_profile first, without paging [unc: order of the rest]', async () => {
    const reply = await server.get('/v2.4/me/permissions', { access_token: bobToken });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      data: [
        { permission: 'public_profile', status: 'granted' },
        { permission: 'user_friends', status: 'granted' },
        { permission: 'user_posts', status: 'granted' },
      ],
    });
    const byApp = await server.get(`/v2.4/${bob}/permissions`, { access_token: appToken });
    assert.deepEqual(byApp.body, reply.body, 'the app itself may read them with its app token');
  });

  it('reads one permission, or nothing when it was never asked for', async () => {
    assert.deepEqual((await server.get('/v2.4/me/permissions/user_posts', { access_token: bobToken })).body, {
      data: [{ permission: 'user_posts', status: 'granted' }],
    });
    assert.deepEqual((await server.get('/v2.4/me/permissions/email', { access_token: bobToken })).body, { data: [] });
  });

  it("keeps other people's answers private", async () => {
    const reply = await server.get(`/v2.4/${bob}/permissions/user_posts`, { access_token: fixture.aliceToken });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 200);
    assert.equal((await remove(`/v2.4/${bob}/permissions/user_posts`, fixture.aliceToken)).status, 403);
  });

  it('revokes one permission: it turns declined and whatever needs it behaves as without it', async () => {
    const bobsPosts = () => server.get(`/v2.4/${bob}/posts`, { access_token: fixture.aliceToken });
    assert.equal((await server.get('/v2.4/me/posts', { access_token: bobToken })).body.data.length, 2, 'his friends-only post and his private one');
    assert.equal((await bobsPosts()).body.data.length, 1, 'Alice sees her friend Bob’s posts while he grants user_posts');

    const revoked = await remove('/v2.4/me/permissions/user_posts', bobToken);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.text, '{"success":true}');

    assert.deepEqual((await server.get('/v2.4/me/permissions/user_posts', { access_token: bobToken })).body, {
      data: [{ permission: 'user_posts', status: 'declined' }],
    });
    assert.deepEqual((await server.get('/v2.4/me/posts', { access_token: bobToken })).body, { data: [] }, 'his own token lost it at once');
    assert.deepEqual((await bobsPosts()).body, { data: [] });
    assert.equal((await server.get('/v2.4/me', { access_token: bobToken })).status, 200, 'the token itself still works');
    assert.equal((await remove('/v2.4/me/permissions/user_posts', bobToken)).status, 200, 'revoking twice is harmless');
  });

  it('refuses to revoke public_profile on its own', async () => {
    const reply = await remove('/v2.4/me/permissions/public_profile', bobToken);
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 100);
    assert.match(reply.body.error.message, /public_profile cannot be revoked on its own; DELETE \/me\/permissions removes the app/);
  });

  it('de-authorises the app: grants gone, every token of the person for the app refused with subcode 458', async () => {
    const secondToken = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const friendIds = async () =>
      (await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken, limit: '100' })).body.data.map((f: { id: string }) => f.id);
    assert.ok((await friendIds()).includes(bob));

    const reply = await remove('/v2.4/me/permissions', bobToken);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { success: true });

    const message = `Error validating access token: User ${bob} has not authorized application ${fixture.app.id}.`;
    for (const token of [bobToken, secondToken]) {
      const refused = await server.get('/v2.4/me', { access_token: token });
      assert.equal(refused.status, 400);
      const { fbtrace_id, ...error } = refused.body.error;
      assert.deepEqual(error, { message, type: 'OAuthException', code: 190, error_subcode: 458 });
      assert.equal(refused.headers.get('www-authenticate'), `OAuth "Facebook Platform" "invalid_token" "${message}"`);
    }
    assert.deepEqual((await server.get(`/v2.4/${bob}/permissions`, { access_token: appToken })).body, { data: [] });
    assert.ok(!(await friendIds()).includes(bob), 'Bob no longer appears among the app’s friends of Alice');
    const stored = await fixture.store.getGrants(fixture.app.id, [fixture.users.bob]);
    assert.equal(stored.has(fixture.users.bob), false);
  });

  it('lets the app de-authorise a person with its app token', async () => {
    const daveToken = await fixture.tokenFor(fixture.users.dave, ['public_profile', 'user_friends']);
    const reply = await remove(`/v2.4/${fixture.scoped(fixture.users.dave)}/permissions`, appToken);
    assert.deepEqual(reply.body, { success: true });
    assert.equal((await server.get('/v2.4/me', { access_token: daveToken })).body.error.error_subcode, 458);
  });
});
