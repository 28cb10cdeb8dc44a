import assert from 'node:assert/strict';
import { before, beforeEach, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { hashPassword } from '../../src/auth/passwords.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { runDialog } from '../helpers/browser.js';
import { NOW, type Fixture } from '../helpers/fixture.js';
import { type Reply, type TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { Clock } from '../../src/clock/clock.js';

const LIFETIME = 600;
const SIXTY_DAYS = 5_184_000;
const REDIRECT = 'https://app.example/cb';

function errorOf(reply: Reply): Record<string, unknown> {
  const { fbtrace_id, ...rest } = reply.body.error;
  assert.match(fbtrace_id, /^[\w-]{11}$/);
  return rest;
}

describe('the token endpoint and token lifetimes', () => {
  let fixture: Fixture;
  let server: TestServer;
  let other: AppRecord;
  let now = NOW;
  const clock = Clock.frozenAt(NOW);

  const served = useFixtureServer({ clock, tokenLifetime: LIFETIME });
  before(async () => {
    ({ fixture, server } = served);
    other = await registerApp(fixture.store, { name: 'Other App', now: NOW });
    await fixture.store.setCredentials({ userId: fixture.users.alice, email: 'alice@example.com', passwordHash: await hashPassword('pw-alice') });
  });
  beforeEach(() => {
    now = NOW; clock.freeze(now);
  });

  const tokenRequest = (params: Record<string, string>) => server.get('/v2.4/oauth/access_token', params);
  const client = () => ({ client_id: String(fixture.app.id), client_secret: fixture.app.secret });

  /** A short-lived user token for Alice, through the dialog and the code exchange. */
  async function dialogToken(): Promise<{ access_token: string; expires_in: number }> {
    const { location } = await runDialog(server.url, {
      clientId: String(fixture.app.id),
      redirectUri: REDIRECT,
      scope: 'user_friends,email',
      email: 'alice@example.com',
      password: 'pw-alice',
    });
    const reply = await tokenRequest({ ...client(), redirect_uri: REDIRECT, code: location.searchParams.get('code')! });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  }

  describe('client_credentials', () => {
    it('answers APPID|APPSECRET as a bearer app token, by GET or POST, with or without a version', async () => {
      const expected = { access_token: `${fixture.app.id}|${fixture.app.secret}`, token_type: 'bearer' };
      const params = { grant_type: 'client_credentials', ...client() };
      assert.deepEqual((await server.get('/v2.4/oauth/access_token', params)).body, expected);
      assert.deepEqual((await server.get('/oauth/access_token', params)).body, expected);
      const posted = await server.fetch(`${server.url}/v2.3/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      assert.equal(posted.status, 200);
      assert.equal(posted.text, JSON.stringify(expected));
      assert.match(posted.headers.get('content-type')!, /^application\/json; charset=UTF-8$/);
    });

    it('gives a token that reads the graph as the app, but is no user: me is error 2500', async () => {
      const token = (await tokenRequest({ grant_type: 'client_credentials', ...client() })).body.access_token;
      const node = await server.get(`/v2.4/${fixture.app.id}`, { access_token: token, fields: 'name' });
      assert.deepEqual(node.body, { name: 'Test App', id: String(fixture.app.id) });
      for (const path of ['/v2.4/me', '/v2.4/me/friends']) {
        const me = await server.get(path, { access_token: token });
        assert.equal(me.status, 400);
        assert.deepEqual(errorOf(me), {
          message: 'An active access token must be used to query information about the current user.',
          type: 'OAuthException',
          code: 2500,
        });
      }
    });

    it('refuses a wrong secret, an unknown app and missing or unknown parameters', async () => {
      const cases: Array<[Record<string, string>, Record<string, unknown>]> = [
        [{ grant_type: 'client_credentials', client_id: String(fixture.app.id), client_secret: 'wrong' },
          { message: 'Error validating client secret.', type: 'OAuthException', code: 1 }],
        [{ grant_type: 'client_credentials', client_id: String(fixture.app.id), client_secret: other.secret },
          { message: 'Error validating client secret.', type: 'OAuthException', code: 1 }],
        [{ grant_type: 'client_credentials', client_id: '424242', client_secret: 'x' },
          { message: 'Error validating application. Invalid application ID.', type: 'OAuthException', code: 101 }],
        [{ grant_type: 'client_credentials', client_secret: 'x' },
          { message: 'Missing client_id parameter.', type: 'OAuthException', code: 101 }],
        [{ grant_type: 'client_credentials', client_id: String(fixture.app.id) },
          { message: 'Missing client_secret parameter.', type: 'OAuthException', code: 1 }],
        [{ grant_type: 'password', ...client() },
          { message: '(#100) Unsupported grant_type: password', type: 'OAuthException', code: 100 }],
      ];
      for (const [params, expected] of cases) {
        const reply = await tokenRequest(params);
        assert.equal(reply.status, 400, JSON.stringify(params));
        assert.deepEqual(errorOf(reply), expected);
      }
    });
  });

  describe('lifetimes', () => {
    it('gives dialog tokens the configured lifetime and refuses them once it has passed (190, subcode 463)', async () => {
      const token = await dialogToken();
      assert.equal(token.expires_in, LIFETIME);
      now = NOW + LIFETIME - 1; clock.freeze(now);
      assert.equal((await server.get('/v2.4/me', { access_token: token.access_token })).status, 200);
      now = NOW + LIFETIME; clock.freeze(now);
      const expired = await server.get('/v2.4/me', { access_token: token.access_token });
      assert.equal(expired.status, 400);
      const message =
        'Error validating access token: Session has expired on Thursday, 09-Oct-25 09:03:20 UTC. ' +
        'The current time is Thursday, 09-Oct-25 09:03:20 UTC.';
      assert.equal(new Date((NOW + LIFETIME) * 1000).toISOString(), '2025-10-09T09:03:20.000Z');
      assert.deepEqual(errorOf(expired), { message, type: 'OAuthException', code: 190, error_subcode: 463 });
      assert.equal(expired.headers.get('www-authenticate'), `OAuth "Facebook Platform" "invalid_token" "${message}"`);
    });

    it('exchanges a short-lived token for a 60-day one of the same person, app and scopes', async () => {
      const short = await dialogToken();
      const appToken = `${fixture.app.id}|${fixture.app.secret}`;
      const shortScopes = (await server.get('/v2.4/debug_token', { input_token: short.access_token, access_token: appToken })).body.data.scopes;
      assert.ok(shortScopes.includes('email') && shortScopes.includes('user_friends'));
      const exchanged = await tokenRequest({ grant_type: 'fb_exchange_token', ...client(), fb_exchange_token: short.access_token });
      assert.equal(exchanged.status, 200, exchanged.text);
      assert.deepEqual(Object.keys(exchanged.body), ['access_token', 'token_type', 'expires_in']);
      assert.equal(exchanged.body.token_type, 'bearer');
      assert.equal(exchanged.body.expires_in, SIXTY_DAYS);
      const long = exchanged.body.access_token as string;
      assert.notEqual(long, short.access_token);

      now = NOW + LIFETIME + 1; clock.freeze(now);
      assert.equal((await server.get('/v2.4/me', { access_token: short.access_token })).status, 400, 'the short one has expired');
      const me = await server.get('/v2.4/me', { access_token: long, fields: 'id,email' });
      assert.deepEqual(me.body, { id: fixture.scoped(fixture.users.alice), email: 'alice@example.com' });
      const debug = await server.get('/v2.4/debug_token', { input_token: long, access_token: appToken });
      assert.deepEqual(debug.body.data.scopes, shortScopes);
      assert.equal(debug.body.data.expires_at, NOW + SIXTY_DAYS);

      now = NOW + SIXTY_DAYS; clock.freeze(now);
      assert.equal((await server.get('/v2.4/me', { access_token: long })).body.error.error_subcode, 463);
    });

    it('refuses to exchange a missing, expired, foreign or unknown token', async () => {
      const missing = await tokenRequest({ grant_type: 'fb_exchange_token', ...client() });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.message, 'fb_exchange_token parameter not specified');

      const short = await dialogToken();
      now = NOW + LIFETIME; clock.freeze(now);
      const expired = await tokenRequest({ grant_type: 'fb_exchange_token', ...client(), fb_exchange_token: short.access_token });
      assert.equal(expired.body.error.code, 190);
      assert.equal(expired.body.error.error_subcode, 463);
      now = NOW; clock.freeze(now);

      const foreign = await tokenRequest({
        grant_type: 'fb_exchange_token',
        client_id: String(other.id),
        client_secret: other.secret,
        fb_exchange_token: short.access_token,
      });
      assert.deepEqual(errorOf(foreign), { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 });
      const appToken = await tokenRequest({ grant_type: 'fb_exchange_token', ...client(), fb_exchange_token: `${fixture.app.id}|${fixture.app.secret}` });
      assert.equal(appToken.body.error.code, 190);
      const unknown = await tokenRequest({ grant_type: 'fb_exchange_token', ...client(), fb_exchange_token: 'EAALnonsense' });
      assert.deepEqual(errorOf(unknown), { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 });
    });

    it('lets an authorization code expire after ten minutes', async () => {
      const { location } = await runDialog(server.url, {
        clientId: String(fixture.app.id),
        redirectUri: REDIRECT,
        email: 'alice@example.com',
        password: 'pw-alice',
      });
      now = NOW + 600; clock.freeze(now);
      const late = await tokenRequest({ ...client(), redirect_uri: REDIRECT, code: location.searchParams.get('code')! });
      assert.equal(late.status, 400);
      assert.match(late.body.error.message, /^Error validating verification code/);
    });
  });
});
