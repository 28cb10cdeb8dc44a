import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { hashPassword } from '../../src/auth/passwords.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { Browser, runDialog, type Page } from '../helpers/browser.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

const PASSWORD = 'redirect me';

/**
 * The dialog sends a person back only where the app registered, to Loom itself, or to their own
 * machine; anything else gets the error page, so no other site can collect a code or a token.
 */
describe('registered redirect URIs', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let good: AppRecord;
  const email = 'dave.redirects@example.com';

  before(async () => {
    ({ fixture, server } = served);
    good = await registerApp(fixture.store, { name: 'Good App', redirectUris: ['https://good.example/oauth'], now: fixture.now });
    await fixture.store.setCredentials({ userId: fixture.users.dave, email, passwordHash: await hashPassword(PASSWORD) });
  });

  const dialogUrl = (base: string, app: AppRecord, redirectUri: string, responseType = 'token') =>
    `${base}/v2.4/dialog/oauth?${new URLSearchParams({ client_id: String(app.id), redirect_uri: redirectUri, response_type: responseType })}`;
  const open = (redirectUri: string, app = good) => new Browser(server.url).open(dialogUrl(server.url, app, redirectUri));

  function assertSignIn(page: Page, redirectUri: string) {
    assert.equal(page.status, 200, `${redirectUri}: ${page.html}`);
    assert.match(page.html, /<input name="password"/, redirectUri);
  }

  function assertBlocked(page: Page, redirectUri: string) {
    assert.equal(page.status, 400, `${redirectUri} is refused`);
    assert.equal(page.location, undefined, `${redirectUri}: never a redirect`);
    assert.match(page.html, /<h1>URL Blocked<\/h1>/, redirectUri);
    assert.match(
      page.html,
      /This redirect failed because the redirect URI is not whitelisted in the app’s Client OAuth Settings\./,
      redirectUri,
    );
    assert.doesNotMatch(page.html, /<form/, redirectUri);
  }

  it('accepts a registered URI and the paths below it, compared after parsing', async () => {
    for (const uri of [
      'https://good.example/oauth',
      'https://good.example/oauth?from=app',
      'https://good.example/oauth/done',
      'https://GOOD.example:443/oauth/done',
    ]) {
      assertSignIn(await open(uri), uri);
    }
  });

  it('refuses look-alikes of the registered URI: other hosts, userinfo, ports, schemes and paths', async () => {
    for (const uri of [
      'https://good.example.evil.com/oauth',
      'https://good.example@evil.com/oauth',
      'https://good.example:pass@evil.com/oauth',
      'https://someone@good.example/oauth',
      'https://evil.com/https://good.example/oauth',
      'https://evil.com/?u=https://good.example/oauth',
      'https://good.example:8443/oauth',
      'http://good.example/oauth',
      'https://good.example/oauthx',
      'https://good.example/oauth-evil',
      'https://good.example/other',
      'https://good.example/',
      'https://good.example/oauth/../admin',
      'https://good.example/oauth/%2e%2e/admin',
      'https://good.example/oauth/..%2f..%2flogout',
      'https://good.example/oauth/x%2F..%2F..%2Fadmin',
      'https://good.example/oauth/%5c..%5cadmin',
      'https://sub.good.example/oauth',
      'http://localhost.evil.com/cb',
      'http://127.0.0.1.evil.com/cb',
    ]) {
      assertBlocked(await open(uri), uri);
    }
  });

  it("refuses another app's registered URI", async () => {
    assertBlocked(await open('https://good.example/oauth', fixture.app), 'https://good.example/oauth for the fixture app');
    assertBlocked(await open('https://app.example/callback', good), 'https://app.example/callback for Good App');
  });

  it('refuses a URI that is not http or https with the same page title', async () => {
    for (const uri of ['ftp://good.example/oauth', 'data:text/html,hi', 'good.example/oauth']) {
      const page = await open(uri);
      assert.equal(page.status, 400, uri);
      assert.match(page.html, /<h1>URL Blocked<\/h1>/, uri);
    }
  });

  it('accepts loopback hosts on any port and scheme, for development on the person’s own machine', async () => {
    for (const uri of ['http://localhost:3000/cb', 'https://localhost/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://LOCALHOST:9/x']) {
      assertSignIn(await open(uri), uri);
    }
  });

  it('completes the flow to a path below the registered URI, handing the token only there', async () => {
    const { location } = await runDialog(server.url, {
      clientId: String(good.id),
      redirectUri: 'https://good.example/oauth/done?x=1',
      responseType: 'token',
      email,
      password: PASSWORD,
    });
    assert.equal(`${location.origin}${location.pathname}${location.search}`, 'https://good.example/oauth/done?x=1');
    const token = new URLSearchParams(location.hash.slice(1)).get('access_token')!;
    const me = await server.get('/v2.4/me', { access_token: token });
    assert.equal(me.status, 200, me.text);
  });

  it('accepts its own sign-in callback on the origin the request came to, and no other page, port or scheme of it', async () => {
    const viaHost = (redirectUri: string) => openWithHost(dialogUrl(server.url, good, redirectUri), 'loom.example:8443');
    assert.equal((await viaHost('http://loom.example:8443/explorer/callback')).status, 200);
    for (const uri of [
      'https://loom.example:8443/explorer/callback',
      'http://loom.example/explorer/callback',
      'http://loom.example.evil.com:8443/',
      'http://loom.example:8443/explorer',
      'http://loom.example:8443/v2.4/me/picture',
      'http://loom.example:8443/explorer/callback/more',
    ]) {
      const page = await viaHost(uri);
      assert.equal(page.status, 400, uri);
      assert.match(page.body, /URL Blocked/, uri);
    }
  });

  it('accepts the configured public URL’s origin', async () => {
    const behindProxy = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), publicUrl: 'https://graph.example.org/' });
    try {
      const at = (uri: string) => new Browser(behindProxy.url).open(dialogUrl(behindProxy.url, good, uri));
      assertSignIn(await at('https://graph.example.org/explorer/callback'), 'public URL');
      assertBlocked(await at('http://graph.example.org/explorer/callback'), 'public URL over http');
      assertBlocked(await at('https://graph.example.org.evil.com/explorer/callback'), 'look-alike of the public URL');
    } finally {
      await behindProxy.close();
    }
  });
});

/** A GET with a Host header of our choosing, as a browser sends when Loom is reached under that name. */
function openWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}
