import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import graph from 'fbgraph';
import { issueAuthCode } from '../../src/auth/auth-codes.js';
import type { Fixture } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

/** Calls an fbgraph function and settles with its callback's `(error, result)`. */
function call(method: string, ...args: unknown[]): Promise<{ error: any; result: any }> {
  return new Promise((resolve) => graph[method](...args, (error: any, result: any) => resolve({ error, result })));
}

async function ok(method: string, ...args: unknown[]): Promise<any> {
  const { error, result } = await call(method, ...args);
  assert.equal(error, null, JSON.stringify(error));
  return result;
}

/** npm `fbgraph`, unmodified, pointed at Loom with its own `setGraphUrl`. */
describe('npm fbgraph through setGraphUrl', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_posts', 'user_friends', 'publish_actions']);
    graph.setGraphUrl(server.url).setVersion('2.4').setAccessToken(token).setAppSecret(null);
  });

  it('keeps the settings it is given', () => {
    assert.equal(graph.getGraphUrl(), server.url);
    assert.equal(graph.getAccessToken(), token);
    assert.deepEqual(graph.setOptions({ timeout: 10_000 }).getOptions(), { timeout: 10_000 });
  });

  it('reads with graph.get, parameters in the URL or as an object', async () => {
    const me = await ok('get', 'me?fields=id,name');
    assert.deepEqual(me, { id: fixture.scoped(fixture.users.alice), name: 'Alice Arden' });
    const friends = await ok('get', '/me/friends', { limit: 2, fields: 'name' });
    assert.equal(friends.data.length, 2);
    const next = await ok('get', friends.paging.next);
    assert.equal(next.data.length, 2);
    assert.notEqual(next.data[0].id, friends.data[0].id);
    const missing = await call('get', '/404');
    assert.equal(missing.error.code, 100);
    assert.equal(missing.error.error_subcode, 33);
  });

  it('reads a picture as fbgraph knows it: { image, location } from the redirect', async () => {
    const picture = await ok('get', '/me/picture');
    assert.equal(picture.image, true);
    assert.match(picture.location, new RegExp(`^${server.url}/media/`));
    const data = await ok('get', '/me/picture', { redirect: 'false' });
    assert.equal(data.data.url, picture.location);
  });

  it('posts to a feed (a form body with no Content-Type) and deletes with graph.del', async () => {
    const posted = await ok('post', '/me/feed', { message: 'Hello from fbgraph' });
    assert.match(posted.id, /^\d+_\d+$/);
    const read = await ok('get', `/${posted.id}`, { fields: 'message' });
    assert.equal(read.message, 'Hello from fbgraph');
    assert.deepEqual(await ok('del', `/${posted.id}`), { success: true });
    assert.equal((await call('get', `/${posted.id}`)).error.code, 100);
  });

  it('sends a batch with graph.batch', async () => {
    const answers = await ok('batch', [
      { method: 'GET', relative_url: 'me?fields=name' },
      { method: 'POST', relative_url: 'me/feed', body: 'message=Batched+by+fbgraph' },
      { method: 'GET', relative_url: 'me/friends?limit=1&fields=name' },
    ]);
    assert.equal(answers.length, 3);
    assert.deepEqual(answers.map((answer: any) => answer.code), [200, 200, 200]);
    assert.deepEqual(JSON.parse(answers[0].body), { name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) });
    const postId = JSON.parse(answers[1].body).id;
    assert.equal((await ok('get', `/${postId}`, { fields: 'message' })).message, 'Batched by fbgraph');
    assert.equal(JSON.parse(answers[2].body).data.length, 1);
  });

  it('exchanges tokens with graph.authorize and graph.extendAccessToken', async () => {
    const appToken = `${fixture.app.id}|${fixture.app.secret}`;
    const app = await ok('get', '/oauth/access_token', { client_id: String(fixture.app.id), client_secret: fixture.app.secret, grant_type: 'client_credentials' });
    assert.equal(app.access_token, appToken);
    // A code as the sign-in dialog hands it to the redirect URI.
    const redirectUri = 'https://app.example/callback';
    const code = await issueAuthCode(fixture.store, { appId: fixture.app.id, userId: fixture.users.bob, redirectUri, scopes: ['public_profile'], now: fixture.now });
    const authorized = await ok('authorize', { client_id: String(fixture.app.id), client_secret: fixture.app.secret, redirect_uri: redirectUri, code });
    assert.equal(graph.getAccessToken(), authorized.access_token, 'authorize keeps the new token');
    assert.equal((await ok('get', '/me', { fields: 'id' })).id, fixture.scoped(fixture.users.bob));
    graph.setAccessToken(token);
    const extended = await ok('extendAccessToken', { client_id: String(fixture.app.id), client_secret: fixture.app.secret, access_token: token });
    assert.match(extended.access_token, /^EAA/);
    assert.notEqual(extended.access_token, token);
    const me = await ok('get', `/me?fields=id&access_token=${extended.access_token}`);
    assert.equal(me.id, fixture.scoped(fixture.users.alice));
  });

  it('signs every call with appsecret_proof once given the app secret', async () => {
    graph.setAppSecret(fixture.app.secret);
    try {
      assert.equal((await ok('get', '/me', { fields: 'id' })).id, fixture.scoped(fixture.users.alice));
      graph.setAppSecret('not-the-secret');
      const refused = await call('get', '/me', { fields: 'id' });
      assert.equal(refused.error.code, 100);
      assert.match(refused.error.message, /appsecret_proof/);
    } finally {
      graph.setAppSecret(null);
    }
  });
});
