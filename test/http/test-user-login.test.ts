import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOGIN_LINK_MARK, LOGIN_LINK_SECONDS } from '../../src/auth/login-links.js';
import { SESSION_SECONDS } from '../../src/auth/browser-session.js';
import { Clock } from '../../src/clock/clock.js';
import { Browser } from '../helpers/browser.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe("a test user's login_url", () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;

  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  async function newTestUser(name: string): Promise<{ id: string; login_url: string; access_token: string }> {
    const reply = await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, name });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  }

  const dialogUrl = (base: string) =>
    `${base}/v2.4/dialog/oauth?${new URLSearchParams({ client_id: String(fixture.app.id), redirect_uri: `${base}/explorer/callback`, scope: 'user_posts', response_type: 'token' })}`;

  it('carries a long random code, and the id alone signs nobody in', async () => {
    const user = await newTestUser('Tessa Link');
    const url = new URL(user.login_url);
    assert.equal(`${url.origin}${url.pathname}`, `${server.url}/checkpoint/test-user-login/${user.id}/`);
    assert.match(url.searchParams.get('code') ?? '', /^LG[\w-]{43}$/);

    const browser = new Browser(server.url);
    for (const bare of [`${url.origin}${url.pathname}`, `${url.origin}${url.pathname}?code=LG${'a'.repeat(43)}`]) {
      const refused = await browser.open(bare);
      assert.equal(refused.status, 403);
      assert.match(refused.html, /This login link cannot be used/);
      assert.equal(refused.headers.getSetCookie().length, 0, 'no session for a link without its code');
    }
  });

  it('signs the browser in once, with an HttpOnly, SameSite=Lax, expiring session, and offers the Explorer', async () => {
    const user = await newTestUser('Tobias Once');
    const browser = new Browser(server.url);
    const landing = await browser.open(user.login_url);
    assert.equal(landing.status, 200, landing.html);
    assert.match(landing.html, /Signed in as Tobias Once/);
    assert.match(landing.html, /<a class="button" href="\/explorer">Open the Explorer<\/a>/);
    const [session] = landing.headers.getSetCookie();
    assert.match(session!, new RegExp(`^loom_session=[^;]+; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Lax$`));

    const again = await new Browser(server.url).open(user.login_url);
    assert.equal(again.status, 403, 'the link works once');
  });

  it('lets the dialog go straight to consent as the signed-in test user, and back to a pending dialog', async () => {
    const user = await newTestUser('Tilda Dialog');
    const browser = new Browser(server.url);
    const signIn = await browser.open(dialogUrl(server.url));
    assert.match(signIn.html, /<input name="password"/, 'not signed in yet: the dialog asks for a password');

    const landing = await browser.open(user.login_url);
    const pending = /<a class="button" href="([^"]+)">Continue signing in to the app<\/a>/.exec(landing.html);
    assert.ok(pending, landing.html);
    assert.equal(`${server.url}${pending[1]!.replace(/&#38;/g, '&')}`, dialogUrl(server.url));

    const consent = await browser.open(dialogUrl(server.url));
    assert.doesNotMatch(consent.html, /name="password"/, 'no password while the session lasts');
    assert.match(consent.html, /Signed in as Tilda Dialog \(<a href="\/logout\?next=%2Fv2\.4%2Fdialog%2Foauth%3F[^"]*">not you\?<\/a>\)/);
    const done = await browser.submit(consent, {}, ['decision', 'allow']);
    assert.equal(done.status, 302, done.html);
    const token = new URLSearchParams(new URL(done.location!).hash.slice(1)).get('access_token')!;
    const me = await server.get('/v2.4/me', { access_token: token });
    assert.equal(me.body.id, user.id, 'the token is the test user’s');
  });

  it('stops working after an hour, and the session after its lifetime', async () => {
    const user = await newTestUser('Theo Late');
    const late = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now + LOGIN_LINK_SECONDS) });
    try {
      const expired = await new Browser(late.url).open(user.login_url.replace(server.url, late.url));
      assert.equal(expired.status, 403);
    } finally {
      await late.close();
    }

    const other = await newTestUser('Thea Session');
    const browser = new Browser(server.url);
    assert.equal((await browser.open(other.login_url)).status, 200);
    const later = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now + SESSION_SECONDS) });
    try {
      const page = await browser.open(dialogUrl(later.url));
      assert.match(page.html, /<input name="password"/, 'an ended session asks for the password again');
    } finally {
      await later.close();
    }
  });

  it('never passes for a dialog code at the token endpoint', async () => {
    const user = await newTestUser('Tariq Exchange');
    const code = new URL(user.login_url).searchParams.get('code')!;
    const exchanged = await server.get('/v2.4/oauth/access_token', {
      client_id: String(fixture.app.id),
      client_secret: fixture.app.secret,
      redirect_uri: LOGIN_LINK_MARK,
      code,
    });
    assert.equal(exchanged.status, 400, exchanged.text);
    assert.equal(exchanged.body.error.code, 100);
  });

  it('gives every listed test user a fresh working link, and signs out on /logout', async () => {
    const user = await newTestUser('Tomas Listed');
    const listed = await server.get(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, limit: '100' });
    const entry = listed.body.data.find((item: { id: string }) => item.id === user.id);
    assert.notEqual(entry.login_url, user.login_url, 'each listing issues a new code');
    const browser = new Browser(server.url);
    assert.equal((await browser.open(entry.login_url)).status, 200);
    assert.doesNotMatch((await browser.open(dialogUrl(server.url))).html, /name="password"/);

    const out = await browser.open(`${server.url}/logout?next=${encodeURIComponent('/explorer')}`);
    assert.equal(out.status, 302);
    assert.equal(out.location, '/explorer');
    assert.match((await browser.open(dialogUrl(server.url))).html, /<input name="password"/);
    const elsewhere = await browser.open(`${server.url}/logout?next=${encodeURIComponent('https://evil.example/')}`);
    assert.equal(elsewhere.location, '/explorer', 'never sends the browser to another site');
  });
});
