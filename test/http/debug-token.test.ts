import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { NOW, type Fixture } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { Clock } from '../../src/clock/clock.js';

describe('GET /debug_token', () => {
  let fixture: Fixture;
  let server: TestServer;
  let other: AppRecord;
  let appToken: string;
  let now = NOW;
  const clock = Clock.frozenAt(NOW);

  const served = useFixtureServer({ clock });
  before(async () => {
    ({ fixture, server } = served);
    other = await registerApp(fixture.store, { name: 'Other App', now: NOW });
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });
  beforeEach(() => {
    now = NOW; clock.freeze(now);
  });

  const debug = (input: string, accessToken = appToken) => server.get('/v2.4/debug_token', { input_token: input, access_token: accessToken });

  it('describes a valid user token with string ids; user_id is the id /me shows', async () => {
    const reply = await debug(fixture.aliceToken);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      data: {
        app_id: String(fixture.app.id),
        type: 'USER',
        application: 'Test App',
        expires_at: NOW + 7200,
        is_valid: true,
        issued_at: NOW,
        scopes: graphSchema().allScopes(),
        user_id: fixture.scoped(fixture.users.alice),
      },
    });
    assert.deepEqual(Object.keys(reply.body.data), ['app_id', 'type', 'application', 'expires_at', 'is_valid', 'issued_at', 'scopes', 'user_id']);
    const me = await server.get('/v2.4/me', { access_token: fixture.aliceToken, fields: 'id' });
    assert.equal(reply.body.data.user_id, me.body.id);
  });

  it('may be asked with a user token of the same app, and describes app tokens', async () => {
    const bobToken = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const reply = await debug(appToken, bobToken);
    assert.deepEqual(reply.body, { data: { app_id: String(fixture.app.id), type: 'APP', application: 'Test App', is_valid: true } });
    assert.equal((await debug(fixture.aliceToken, bobToken)).body.data.is_valid, true);
  });

  it('answers 200 with is_valid:false and the nested error for a token that does not work', async () => {
    const garbage = await debug('EAALgarbage');
    assert.equal(garbage.status, 200);
    assert.deepEqual(garbage.body, { data: { error: { message: 'Invalid OAuth access token.', code: 190 }, is_valid: false, scopes: [] } });

    now = NOW + 7200; clock.freeze(now);
    const expired = await debug(fixture.aliceToken);
    assert.equal(expired.status, 200);
    const { error, ...rest } = expired.body.data;
    assert.equal(error.code, 190);
    assert.equal(error.subcode, 463);
    assert.match(error.message, /^Error validating access token: Session has expired on /);
    assert.deepEqual(rest, {
      app_id: String(fixture.app.id),
      type: 'USER',
      application: 'Test App',
      expires_at: NOW + 7200,
      is_valid: false,
      issued_at: NOW,
      scopes: graphSchema().allScopes(),
      user_id: fixture.scoped(fixture.users.alice),
    });
  });

  it('shows what the person still grants, and a de-authorised token as subcode 458', async () => {
    const daveToken = await fixture.tokenFor(fixture.users.dave, ['public_profile', 'user_friends', 'email']);
    assert.deepEqual((await debug(daveToken)).body.data.scopes, ['public_profile', 'user_friends', 'email']);
    await server.fetch(`${server.url}/v2.4/me/permissions/email?access_token=${daveToken}`, { method: 'DELETE' });
    assert.deepEqual((await debug(daveToken)).body.data.scopes, ['public_profile', 'user_friends']);

    await server.fetch(`${server.url}/v2.4/me/permissions?access_token=${daveToken}`, { method: 'DELETE' });
    const revoked = (await debug(daveToken)).body.data;
    assert.equal(revoked.is_valid, false);
    assert.deepEqual(revoked.error, {
      message: `Error validating access token: User ${fixture.scoped(fixture.users.dave)} has not authorized application ${fixture.app.id}.`,
      code: 190,
      subcode: 458,
    });
    assert.equal(revoked.user_id, fixture.scoped(fixture.users.dave));
    // As for a token the person logged out of, what it carried is still named.
    assert.deepEqual(revoked.scopes, ['public_profile', 'user_friends', 'email']);
    assert.equal(typeof revoked.expires_at, 'number');
  });

  it("refuses to let another app inspect this app's tokens, either way round", async () => {
    const otherToken = `${other.id}|${other.secret}`;
    for (const [input, caller] of [[fixture.aliceToken, otherToken], [otherToken, appToken]] as const) {
      const reply = await debug(input, caller);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 100);
      assert.match(reply.body.error.message, /^\(#100\) You must provide an app access token or a user access token/);
      assert.equal(reply.body.data, undefined);
    }
  });

  it('needs an access token and an input_token', async () => {
    const noInput = await server.get('/v2.4/debug_token', { access_token: appToken });
    assert.equal(noInput.status, 400);
    assert.equal(noInput.body.error.message, '(#100) The parameter input_token is required');
    const noToken = await server.get('/debug_token', { input_token: fixture.aliceToken });
    assert.equal(noToken.status, 400);
    assert.equal(noToken.body.error.code, 104);
    const badCaller = await debug(fixture.aliceToken, 'EAALnope');
    assert.equal(badCaller.body.error.code, 190);
  });
});
