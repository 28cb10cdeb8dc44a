import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.js';
import { runDialog } from '../helpers/browser.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'https://app.example/callback';
/** Permissions of v2.4 that no field or edge of Loom's schema needs: only the catalogue knows them. */
const CATALOGUE_ONLY = ['read_insights', 'user_actions.books', 'manage_pages', 'ads_read', 'rsvp_event', 'read_audience_network_insights'];

describe('the v2.4 permission catalogue over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    await fixture.store.setCredentials({ userId: fixture.users.dave, email: 'dave@example.com', passwordHash: await hashPassword(PASSWORD) });
  });

  const createTestUser = (permissions: string) =>
    server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, installed: 'true', permissions });

  it('creates test users with any v2.4 permission, which /me/permissions then lists', async () => {
    const reply = await createTestUser(['public_profile', 'user_friends', ...CATALOGUE_ONLY].join(','));
    assert.equal(reply.status, 200, reply.text);
    const permissions = await server.get('/v2.4/me/permissions', { access_token: reply.body.access_token });
    const granted = permissions.body.data.filter((entry: any) => entry.status === 'granted').map((entry: any) => entry.permission);
    for (const name of CATALOGUE_ONLY) assert.ok(granted.includes(name), name);
    const one = await server.get('/v2.4/me/permissions/read_insights', { access_token: reply.body.access_token });
    assert.deepEqual(one.body, { data: [{ permission: 'read_insights', status: 'granted' }] });
    const debug = await server.get('/v2.4/debug_token', { input_token: reply.body.access_token, access_token: appToken });
    assert.ok(debug.body.data.scopes.includes('read_insights'), debug.text);
  });

  it('refuses a name no version had, and one retired before v2.4, with code 100 (wording unconfirmed)', async () => {
    for (const name of ['read_minds', 'read_stream']) {
      const reply = await createTestUser(`public_profile,${name}`);
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(reply.body.error.code, 100);
      assert.equal(reply.body.error.message, `(#100) Invalid permission: ${name}`);
      const asked = await server.get(`/v2.4/me/permissions/${name}`, { access_token: fixture.aliceToken });
      assert.equal(asked.status, 400, asked.text);
      assert.equal(asked.body.error.code, 100);
    }
  });

  it('describes each requested permission on the consent page and grants catalogue-only ones', async () => {
    const { location, pages } = await runDialog(server.url, {
      clientId: String(fixture.app.id),
      redirectUri: REDIRECT,
      scope: 'read_insights,user_actions.music',
      email: 'dave@example.com',
      password: PASSWORD,
      tick: ['read_insights', 'user_actions.music'],
    });
    const consent = pages[1]!.html;
    assert.match(consent, /value="read_insights" checked> <span><code>read_insights<\/code><span class="what">Insights of the Pages, apps and web sites the person owns\.<\/span>/);
    assert.match(consent, /<code>user_actions\.music<\/code><span class="what">Songs listened to in apps\.<\/span>/);
    assert.match(consent, /<code>public_profile<\/code><span class="what">Name, picture/);
    const code = location.searchParams.get('code');
    assert.ok(code, location.href);
  });

  it('refuses the dialog for a name v2.4 does not offer', async () => {
    const query = new URLSearchParams({ client_id: String(fixture.app.id), redirect_uri: REDIRECT, scope: 'email,read_stream' });
    const page = await fetch(`${server.url}/v2.4/dialog/oauth?${query}`);
    assert.match(await page.text(), /Invalid Scopes: read_stream\./);
  });

  it("lists every v2.4 permission with its description in the Explorer's permissions.json", async () => {
    const reply = await server.get('/explorer/permissions.json');
    const entries = reply.body.groups.flatMap((group: any) => group.permissions);
    for (const name of [...CATALOGUE_ONLY, 'user_actions.fitness', 'read_page_mailboxes', 'publish_pages', 'ads_management']) {
      const entry = entries.find((candidate: any) => candidate.name === name);
      assert.ok(entry && entry.description.length > 10, name);
    }
    assert.ok(!entries.some((entry: any) => entry.name === 'read_stream'));
  });
});
