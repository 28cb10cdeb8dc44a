import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import type { TestServer } from '../helpers/server.js';

/** Which answer a special path gets, when the request also names what another path reads. */
describe('the paths of the handler table', () => {
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  it('answers the service paths as they stand: ids= reads nothing there', async () => {
    const issued = await server.get('/v2.4/oauth/access_token', {
      client_id: String(fixture.app.id),
      client_secret: fixture.app.secret,
      grant_type: 'client_credentials',
      ids: String(fixture.users.bob),
    });
    assert.equal(issued.status, 200, issued.text);
    assert.equal(issued.body.access_token, appToken);
    const userToken = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const debugged = await server.get('/v2.4/debug_token', { input_token: userToken, access_token: appToken, ids: fixture.scoped(fixture.users.bob) });
    assert.equal(debugged.status, 200, debugged.text);
    assert.equal(debugged.body.data.user_id, fixture.scoped(fixture.users.bob));
  });

  it('reads search with ids= as an edge of each id, which no node has', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['public_profile']);
    const alone = await server.get('/v2.4/search', { q: 'Bob', type: 'user', access_token: token });
    assert.equal(alone.status, 200, alone.text);
    const reply = await server.get('/v2.4/search', { q: 'Bob', type: 'user', ids: fixture.scoped(fixture.users.alice), access_token: token });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.message, 'Unknown path components: /search');
  });

  it('answers a picture without a token to anyone, but me only to a token', async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const open = await server.fetch(`${server.url}/v2.4/${bob}/picture`, { redirect: 'manual' });
    assert.equal(open.status, 302);
    const me = await server.get('/v2.4/me/picture', { redirect: 'false' });
    assert.equal(me.status, 400, me.text);
    assert.equal(me.body.error.code, 2500);
    assert.match(me.body.error.message, /active access token/);
    const token = await fixture.tokenFor(fixture.users.alice, ['public_profile']);
    const own = await server.get('/v2.4/me/picture', { redirect: 'false', access_token: token });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(own.body, { data: { is_silhouette: true, url: `${server.url}/media/silhouette.svg` } });
  });
});
