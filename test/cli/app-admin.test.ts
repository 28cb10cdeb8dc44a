import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loom } from '../helpers/cli.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';
import type { Store } from '../../src/store/store.js';

/** Credentials a client suite hard-codes, as a real app's would look. */
const ID = '117743971608120';
const SECRET = '0123456789abcdef0123456789abcdef';
const DELETED = { message: 'Error validating application. Application has been deleted.', type: 'OAuthException', code: 190 };

function assertDeleted(reply: Reply) {
  assert.equal(reply.status, 400, reply.text);
  const { fbtrace_id, ...rest } = reply.body.error;
  assert.deepEqual(rest, DELETED);
  assert.match(fbtrace_id, /^[\w-]{11}$/);
}

describe('loom app create --id --secret, update and delete, as client suites use them', () => {
  const db = scratchLocation();
  let store: Store;
  let server: TestServer;
  before(async () => {
    const created = loom('app', 'create', '--name', 'Suite App', '--id', ID, '--secret', SECRET, '--json', '--db', db);
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(JSON.parse(created.stdout), { id: ID, secret: SECRET });
    store = await openLocation(db);
    server = await startServer(store);
  });
  after(async () => {
    await server.close();
    await store.close();
  });
  const appToken = `${ID}|${SECRET}`;

  it('refuses a taken id, an id too small for a fixed one, and --id without --secret', () => {
    const taken = loom('app', 'create', '--name', 'Copy', '--id', ID, '--secret', SECRET, '--db', db);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, new RegExp(`--id: the id ${ID} is already taken`));
    const small = loom('app', 'create', '--name', 'Small', '--id', '42', '--secret', SECRET, '--db', db);
    assert.equal(small.code, 2);
    assert.match(small.stderr, /--id: an app id must be a whole number from 1099511627776/);
    assert.match(loom('app', 'create', '--name', 'Half', '--id', ID, '--db', db).stderr, /--id and --secret go together/);
    assert.match(loom('app', 'create', '--name', 'Weak', '--id', '117743971608121', '--secret', 'short', '--db', db).stderr, /--secret: /);
  });

  it('serves the fixed app: client_credentials, GET /<app-id> and GET /app with app and user tokens', async () => {
    const issued = await server.get('/v2.4/oauth/access_token', { grant_type: 'client_credentials', client_id: ID, client_secret: SECRET });
    assert.deepEqual(issued.body, { access_token: appToken, token_type: 'bearer' });
    const node = await server.get(`/v2.4/${ID}`, { access_token: appToken });
    assert.deepEqual(node.body, { link: `https://www.facebook.com/apps/application.php?id=${ID}`, name: 'Suite App', id: ID });
    const user = await server.form(`/v2.4/${ID}/accounts/test-users`, { access_token: appToken, permissions: 'read_insights' });
    assert.equal(user.status, 200, user.text);
    const viaUser = await server.get('/v2.4/app', { access_token: user.body.access_token, fields: 'id,name' });
    assert.deepEqual(viaUser.body, { id: ID, name: 'Suite App' });
    const viaApp = await server.get('/app', { access_token: appToken, fields: 'id' });
    assert.deepEqual(viaApp.body, { id: ID });
  });

  it('updates settings with POST /<app-id> and the app token, and refuses them to a user token', async () => {
    const posted = await server.form(`/v2.4/${ID}`, { access_token: appToken, restrictions: '{"age":"21+"}', category: 'Utilities' });
    assert.equal(posted.text, '{"success":true}');
    const read = await server.get('/v2.4/app', { access_token: appToken, fields: 'restrictions,category' });
    assert.deepEqual(read.body, { restrictions: { age: '21+' }, category: 'Utilities', id: ID });
    const bad = await server.form(`/v2.4/${ID}`, { access_token: appToken, restrictions: '[1]' });
    assert.equal(bad.body.error.code, 100);
    const user = await server.form(`/v2.4/${ID}/accounts/test-users`, { access_token: appToken });
    const byUser = await server.form(`/v2.4/${ID}`, { access_token: user.body.access_token, restrictions: '{}' });
    assert.equal(byUser.status, 400, byUser.text);
    assert.equal(byUser.body.error.error_subcode, 33);
  });

  it('updates name, namespace, redirect URIs and the proof requirement from the command line', async () => {
    const updated = loom('app', 'update', ID, '--name', 'Renamed Suite App', '--namespace', 'suiteapp', '--redirect-uri', 'https://suite.example/cb', '--db', db);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, new RegExp(`Updated app ${ID} "Renamed Suite App"`));
    const node = await server.get(`/v2.4/${ID}`, { access_token: appToken, fields: 'name,namespace' });
    assert.deepEqual(node.body, { name: 'Renamed Suite App', namespace: 'suiteapp', id: ID });
    assert.deepEqual(JSON.parse(loom('app', 'list', '--json', '--db', db).stdout)[0].redirect_uris, ['https://suite.example/cb']);
    assert.equal(loom('app', 'update', ID, '--require-proof', '--db', db).code, 0);
    assert.equal((await server.get('/v2.4/app', { access_token: appToken })).status, 400, 'a proof is now required');
    assert.equal(loom('app', 'update', ID, '--no-require-proof', '--db', db).code, 0);
    assert.equal((await server.get('/v2.4/app', { access_token: appToken })).status, 200);
    assert.match(loom('app', 'update', ID, '--db', db).stderr, /nothing to update/);
    assert.match(loom('app', 'update', '999999', '--name', 'x', '--db', db).stderr, /there is no app 999999/);
  });

  it('after deletion, answers every use of the id, secret and tokens with "Application has been deleted"', async () => {
    const user = await server.form(`/v2.4/${ID}/accounts/test-users`, { access_token: appToken });
    const userToken: string = user.body.access_token;
    assert.equal((await server.get('/v2.4/me', { access_token: userToken })).status, 200);

    const deleted = loom('app', 'delete', ID, '--db', db);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, new RegExp(`Deleted app ${ID}`));

    assertDeleted(await server.get('/v2.4/oauth/access_token', { grant_type: 'client_credentials', client_id: ID, client_secret: SECRET }));
    assertDeleted(await server.get('/v2.4/app', { access_token: appToken }));
    assertDeleted(await server.get(`/v2.4/${ID}/accounts/test-users`, { access_token: appToken }));
    assertDeleted(await server.get('/v2.4/me', { access_token: userToken }));
    assertDeleted(await server.get('/v2.4/debug_token', { input_token: userToken, access_token: appToken }));
    assert.equal(JSON.parse(loom('app', 'list', '--json', '--db', db).stdout).length, 0);
    assert.match(loom('app', 'delete', ID, '--db', db).stderr, new RegExp(`there is no app ${ID}`));
    const again = loom('app', 'create', '--name', 'Again', '--id', ID, '--secret', SECRET, '--db', db);
    assert.match(again.stderr, /already taken/, "a deleted app's id is not handed out again");
  });
});
