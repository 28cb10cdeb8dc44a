import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loom } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

describe('loom app --api-version', () => {
  const db = scratchLocation();

  it('refuses a version the real service never published', () => {
    for (const version of ['v9.9', 'latest']) {
      const run = loom('app', 'create', '--name', 'Odd', '--api-version', version, '--db', db);
      assert.equal(run.code, 2, version);
      assert.match(run.stderr, /--api-version must be a published Graph API version \(v2\.0 … v27\.0\)/);
    }
  });

  it('creates an app whose unversioned calls answer in v2.0, while another app gets the server default, and changes it with app update', async () => {
    const legacy = JSON.parse(loom('app', 'create', '--name', 'Legacy', '--api-version', 'v2.0', '--json', '--db', db).stdout);
    const current = JSON.parse(loom('app', 'create', '--name', 'Current', '--json', '--db', db).stdout);
    const listed = JSON.parse(loom('app', 'list', '--json', '--db', db).stdout);
    assert.deepEqual(listed.map((app: { name: string; api_version: string | null }) => [app.name, app.api_version]), [['Legacy', 'v2.0'], ['Current', null]]);

    const store = await openLocation(db);
    const server = await startServer(store);
    try {
      const tokenOf = async (app: { id: string; secret: string }) =>
        (await server.get('/oauth/access_token', { grant_type: 'client_credentials', client_id: app.id, client_secret: app.secret })).text;
      assert.equal(await tokenOf(legacy), `access_token=${legacy.id}|${legacy.secret}`, 'v2.0: form-encoded');
      assert.deepEqual(JSON.parse(await tokenOf(current)), { access_token: `${current.id}|${current.secret}`, token_type: 'bearer' });

      // The same unversioned call with each app's token: a test user made, then deleted.
      const roundTrip = async (app: { id: string; secret: string }) => {
        const token = `${app.id}|${app.secret}`;
        const user = await server.form(`/${app.id}/accounts/test-users`, { access_token: token });
        const deleted = await server.form(`/${user.body.id}`, { access_token: token }, 'DELETE');
        return { text: deleted.text, version: deleted.headers.get('facebook-api-version') };
      };
      assert.deepEqual(await roundTrip(legacy), { text: 'true', version: 'v2.0' });
      assert.deepEqual(await roundTrip(current), { text: '{"success":true}', version: 'v2.4' });

      const updated = loom('app', 'update', legacy.id, '--api-version', '2.3', '--db', db);
      assert.equal(updated.code, 0, updated.stderr);
      assert.deepEqual(await roundTrip(legacy), { text: '{"success":true}', version: 'v2.3' });
    } finally {
      await server.close();
      await store.close();
    }
  });
});
