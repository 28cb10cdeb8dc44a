import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { Browser, runDialog } from '../helpers/browser.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';
import type { Fixture } from '../helpers/fixture.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'https://app.example/callback?from=loom';

describe('the OAuth sign-in dialog', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let clientId: string;
  const email = 'dave@example.com';

  before(async () => {
    ({ fixture, server } = served);
    clientId = String(fixture.app.id);
    await fixture.store.setCredentials({ userId: fixture.users.dave, email, passwordHash: await hashPassword(PASSWORD) });
  });

  const exchange = (code: string, redirectUri = REDIRECT) =>
    server.get('/v2.4/oauth/access_token', { client_id: clientId, client_secret: fixture.app.secret, redirect_uri: redirectUri, code });

  it('signs in, asks for consent and redirects with a code the app exchanges for a token', async () => {
    const { location, pages } = await runDialog(server.url, {
      clientId,
      redirectUri: REDIRECT,
      scope: 'user_friends,user_posts,email',
      state: 'xyz 123',
      email: 'Dave@Example.com',
      password: PASSWORD,
      tick: ['user_friends', 'email'],
    });
    const [signIn, consent] = pages;
    assert.match(signIn!.headers.get('content-type')!, /^text\/html/);
    assert.equal(signIn!.headers.get('cache-control'), 'no-store');
    assert.match(signIn!.html, /<form method="post">/);
    assert.match(signIn!.html, /<input name="email"/);
    assert.match(signIn!.html, /<input name="password" type="password"/);
    assert.match(signIn!.html, /<button type="submit">Log in<\/button>/);
    assert.match(signIn!.html, /Test App/);
    for (const scope of ['user_friends', 'user_posts', 'email']) {
      assert.match(consent!.html, new RegExp(`<input type="checkbox" name="scope" value="${scope}" checked>`));
    }
    assert.match(consent!.html, /value="public_profile" checked disabled/, 'public_profile is shown as required');
    assert.match(consent!.html, /<button name="decision" value="deny">Cancel<\/button>/);
    assert.match(consent!.html, /Dave Dale/);

    assert.equal(`${location.origin}${location.pathname}`, 'https://app.example/callback');
    assert.equal(location.searchParams.get('from'), 'loom', "the redirect_uri's own query stays");
    assert.equal(location.searchParams.get('state'), 'xyz 123');
    const code = location.searchParams.get('code')!;
    assert.ok(code.length > 40);

    const token = await exchange(code);
    assert.equal(token.status, 200, token.text);
    assert.deepEqual(Object.keys(token.body), ['access_token', 'token_type', 'expires_in']);
    assert.equal(token.body.token_type, 'bearer');
    assert.equal(token.body.expires_in, 7200);

    const me = await server.get('/v2.4/me', { access_token: token.body.access_token });
    assert.deepEqual(me.body, { name: 'Dave Dale', id: fixture.scoped(fixture.users.dave) });
    const permissions = await server.get('/v2.4/me/permissions', { access_token: token.body.access_token });
    assert.deepEqual(permissions.body, {
      data: [
        { permission: 'public_profile', status: 'granted' },
        { permission: 'email', status: 'granted' },
        { permission: 'user_friends', status: 'granted' },
        { permission: 'user_posts', status: 'declined' },
      ],
    });
    // user_posts was unticked: Dave's own posts are out of this token's reach.
    assert.deepEqual((await server.get('/v2.4/me/posts', { access_token: token.body.access_token })).body, { data: [] });
  });

  it("follows the redirect to the app's own callback, which exchanges the code server-side", async () => {
    // A minimal client app: its callback swaps the code for a token and shows who signed in.
    const exchange = async (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
      const query = new URLSearchParams({ client_id: clientId, client_secret: fixture.app.secret, redirect_uri: redirectUri, code: url.searchParams.get('code') ?? '' });
      const token = (await (await fetch(`${server.url}/v2.4/oauth/access_token?${query}`)).json()) as { access_token: string };
      const me = await (await fetch(`${server.url}/v2.4/me?access_token=${token.access_token}`)).json();
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ state: url.searchParams.get('state'), me }));
    };
    const callback = createServer((request, response) => void exchange(request, response));
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    try {
      const redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
      const browser = new Browser(server.url);
      const dialog = await browser.open(`${server.url}/v2.4/dialog/oauth?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state: 'st8' })}`);
      const consent = await browser.submit(dialog, { email, password: PASSWORD });
      const redirect = await browser.submit(consent, {}, ['decision', 'allow']);
      assert.equal(redirect.status, 302);
      const landed = await browser.open(redirect.location!);
      assert.equal(landed.status, 200);
      assert.deepEqual(JSON.parse(landed.html), { state: 'st8', me: { name: 'Dave Dale', id: fixture.scoped(fixture.users.dave) } });
    } finally {
      await new Promise((resolve) => callback.close(resolve));
    }
  });

  it('redeems a code once only', async () => {
    const { location } = await runDialog(server.url, { clientId, redirectUri: REDIRECT, email, password: PASSWORD });
    const code = location.searchParams.get('code')!;
    assert.equal((await exchange(code)).status, 200);
    const again = await exchange(code);
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'OAuthException');
    assert.equal(again.body.error.code, 100);
    assert.match(again.body.error.message, /^Error validating verification code\. Please make sure your redirect_uri is identical/);
  });

  it('refuses a code sent with a redirect_uri other than the dialog’s, and burns it', async () => {
    const { location } = await runDialog(server.url, { clientId, redirectUri: REDIRECT, email, password: PASSWORD });
    const code = location.searchParams.get('code')!;
    // Registered, so the dialog would take it; but not the one the code was issued for.
    const wrong = await exchange(code, 'https://app.example/callback/other');
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.error.message, /^Error validating verification code/);
    assert.equal((await exchange(code)).status, 400, 'the code is spent');

    const missing = await server.get('/v2.4/oauth/access_token', { client_id: clientId, client_secret: fixture.app.secret, code });
    assert.deepEqual({ ...missing.body.error, fbtrace_id: undefined }, {
      message: 'Missing redirect_uri parameter.',
      type: 'OAuthException',
      code: 191,
      fbtrace_id: undefined,
    });
    assert.equal((await exchange('AQnot-a-code')).status, 400);
  });

  it('refuses to exchange a code without the right client secret, and keeps the code', async () => {
    const { location } = await runDialog(server.url, { clientId, redirectUri: REDIRECT, email, password: PASSWORD });
    const code = location.searchParams.get('code')!;
    const badSecret = await server.get('/v2.4/oauth/access_token', { client_id: clientId, client_secret: 'nope', redirect_uri: REDIRECT, code });
    assert.equal(badSecret.status, 400);
    assert.equal(badSecret.body.error.message, 'Error validating client secret.');
    assert.equal((await exchange(code)).status, 200, 'a refused secret does not spend the code');
  });

  it('refuses a code presented by another app', async () => {
    const other = await registerApp(fixture.store, { name: 'Other App', now: fixture.now });
    const { location } = await runDialog(server.url, { clientId, redirectUri: REDIRECT, email, password: PASSWORD });
    const code = location.searchParams.get('code')!;
    const stolen = await server.get('/v2.4/oauth/access_token', { client_id: String(other.id), client_secret: other.secret, redirect_uri: REDIRECT, code });
    assert.equal(stolen.status, 400);
    assert.match(stolen.body.error.message, /^Error validating verification code/);
  });

  it('redirects with the real error parameters when the person cancels', async () => {
    const { location } = await runDialog(server.url, {
      clientId,
      redirectUri: REDIRECT,
      scope: 'email',
      state: 's-1',
      email,
      password: PASSWORD,
      decision: 'deny',
    });
    assert.equal(
      location.search,
      '?from=loom&error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=s-1',
    );
  });

  it('answers response_type=token with the token in the fragment', async () => {
    const { location } = await runDialog(server.url, {
      clientId,
      redirectUri: 'http://localhost:3000/done',
      responseType: 'token',
      scope: 'user_friends',
      state: 'abc',
      email,
      password: PASSWORD,
      path: '/dialog/oauth',
    });
    assert.equal(location.search, '');
    const fragment = new URLSearchParams(location.hash.slice(1));
    assert.deepEqual([...fragment.keys()], ['access_token', 'expires_in', 'state']);
    assert.equal(fragment.get('expires_in'), '7200');
    assert.equal(fragment.get('state'), 'abc');
    const me = await server.get('/me', { access_token: fragment.get('access_token')! });
    assert.equal(me.body.id, fixture.scoped(fixture.users.dave));
  });

  it('shows the sign-in form again after a wrong password, without leaving the dialog', async () => {
    const browser = new Browser(server.url);
    const signIn = await browser.open(`${server.url}/v2.4/dialog/oauth?client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    for (const [who, password] of [[email, 'wrong'], ['nobody@example.com', PASSWORD]] as const) {
      const again = await browser.submit(signIn, { email: who, password });
      assert.equal(again.status, 200);
      assert.match(again.html, /The email or password you entered is incorrect\./);
      assert.match(again.html, /<button type="submit">Log in<\/button>/);
      assert.doesNotMatch(again.html, /name="decision"/);
    }
  });

  it('refuses forms posted without this browser’s cookie (another site) or with a forged ticket', async () => {
    const browser = new Browser(server.url);
    const signIn = await browser.open(`${server.url}/v2.4/dialog/oauth?client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    assert.match(signIn.headers.get('set-cookie')!, /HttpOnly; SameSite=Lax/);
    browser.clearCookies();
    const crossSite = await browser.submit(signIn, { email, password: PASSWORD });
    assert.equal(crossSite.status, 403);
    assert.doesNotMatch(crossSite.html, /name="decision"/);

    const honest = new Browser(server.url);
    const page = await honest.open(signIn.url);
    const ticket = /name="ticket" value="([^"]+)"/.exec(page.html)![1]!;
    const [body, signature] = ticket.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    // Skipping the sign-in: a ticket rewritten to the consent stage for someone else.
    const forged = `${Buffer.from(JSON.stringify({ ...claims, stage: 'consent', userId: fixture.users.alice })).toString('base64url')}.${signature}`;
    const forgedPage = { ...page, html: page.html.replace(ticket, forged) };
    const refused = await honest.submit(forgedPage, {}, ['decision', 'allow']);
    assert.equal(refused.status, 403);
    assert.equal(refused.location, undefined);
  });

  it('shows an error page, never a redirect, for an unknown app, a bad redirect_uri, unknown scopes or repeated parameters', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ client_id: '999999', redirect_uri: REDIRECT }, /Invalid App ID/],
      [{ redirect_uri: REDIRECT }, /Invalid App ID/],
      [{ client_id: clientId }, /redirect_uri parameter is missing/],
      [{ client_id: clientId, redirect_uri: 'javascript:alert(1)' }, /URL Blocked[\s\S]*must be an absolute http or https address/],
      [{ client_id: clientId, redirect_uri: '/relative' }, /URL Blocked/],
      [{ client_id: clientId, redirect_uri: `${REDIRECT}#frag` }, /URL Blocked/],
      [{ client_id: clientId, redirect_uri: 'https://evil.example/callback' }, /URL Blocked[\s\S]*redirect URI is not whitelisted/],
      [{ client_id: clientId, redirect_uri: REDIRECT, scope: 'email,read_minds' }, /Invalid Scopes: read_minds/],
      [{ client_id: clientId, redirect_uri: REDIRECT, response_type: 'id_token' }, /Unsupported response_type/],
    ];
    const repeated = (name: string, value: string) => new URLSearchParams([['client_id', clientId], ['redirect_uri', REDIRECT], [name, value], [name, value]]);
    for (const [query, message] of [
      [repeated('scope', 'email'), /scope parameter may be given only once/],
      [repeated('redirect_uri', REDIRECT), /redirect_uri parameter may be given only once/],
      [repeated('state', 's'), /state parameter may be given only once/],
    ] as const) {
      const page = await new Browser(server.url).open(`${server.url}/v2.4/dialog/oauth?${query}`);
      assert.equal(page.status, 400, String(query));
      assert.match(page.html, message);
    }
    for (const [params, message] of cases) {
      const page = await new Browser(server.url).open(`${server.url}/v2.4/dialog/oauth?${new URLSearchParams(params)}`);
      assert.equal(page.status, 400, JSON.stringify(params));
      assert.equal(page.location, undefined);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.equal(page.headers.get('access-control-allow-origin'), null, 'pages are not shared with other sites');
      assert.match(page.html, message);
      assert.doesNotMatch(page.html, /<form/);
    }
  });

  it('escapes what the request puts in the page', async () => {
    const page = await new Browser(server.url).open(
      `${server.url}/v2.4/dialog/oauth?${new URLSearchParams({ client_id: '<script>alert(1)</script>', redirect_uri: REDIRECT })}`,
    );
    assert.doesNotMatch(page.html, /<script>/);
    assert.match(page.html, /&#60;script&#62;/);
    assert.match(page.headers.get('content-security-policy')!, /default-src 'none'/);
  });
});
