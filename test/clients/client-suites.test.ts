import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import graph from 'fbgraph';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { Clock } from '../../src/clock/clock.js';
import { openCertificateAuthority } from '../../src/intercept/certificate-authority.js';
import { loom } from '../helpers/cli.js';
import { runFb, type FbProxy } from '../helpers/fb-child.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { startServer, type TestServer } from '../helpers/server.js';

function call(method: string, ...args: unknown[]): Promise<{ error: any; result: any }> {
  return new Promise((resolve) => graph[method](...args, (error: any, result: any) => resolve({ error, result })));
}

async function ok(method: string, ...args: unknown[]): Promise<any> {
  const { error, result } = await call(method, ...args);
  assert.equal(error, null, JSON.stringify(error));
  return result;
}

interface TestUser {
  id: string;
  access_token: string;
}

/** What the live suites of real client libraries do first, done through the unmodified npm clients. */
describe('a client test suite set-up, through npm fbgraph and fb', () => {
  let fixture: Fixture;
  let server: TestServer;
  let proxy: FbProxy;
  let appToken: string;
  before(async () => {
    fixture = await buildFixture();
    const authority = await openCertificateAuthority(join(mkdtempSync(join(tmpdir(), 'loom-ca-')), 'ca'));
    server = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), intercept: await authority.issueHostCredentials() });
    proxy = { proxyUrl: server.url, certificatePath: authority.certificatePath };
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    graph.setGraphUrl(server.url).setVersion('2.4').setAccessToken(null);
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  it('creates a network of 5 test users with read_insights and befriends them pairwise without user_friends', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 5; i++) {
      users.push(
        await ok('post', `/${fixture.app.id}/accounts/test-users`, {
          access_token: appToken,
          installed: 'true',
          permissions: 'read_insights,user_posts,publish_actions',
        }),
      );
    }
    // As Koala's create_network does: each pair, the first asks with its own token, the second accepts with its own.
    for (const [index, user] of users.entries()) {
      for (const friend of users.slice(index + 1)) {
        assert.deepEqual(await ok('post', `/${user.id}/friends/${friend.id}?access_token=${user.access_token}`), { success: true });
        assert.deepEqual(await ok('post', `/${friend.id}/friends/${user.id}?access_token=${friend.access_token}`), { success: true });
      }
    }
    for (const user of users) {
      const permissions = await ok('get', `/me/permissions?access_token=${user.access_token}`);
      assert.deepEqual(
        permissions.data.map((entry: { permission: string }) => entry.permission).sort(),
        ['public_profile', 'publish_actions', 'read_insights', 'user_posts'],
      );
      // Seen with a token that carries user_friends: the count holds all four friendships.
      const withFriends = await fixture.tokenFor(scopedIdsFor(fixture.app).unscope(user.id)!, ['user_friends']);
      const friends = await ok('get', `/me/friends?access_token=${withFriends}`);
      assert.equal(friends.summary.total_count, 4);
    }
  });

  it('reads a picture with no token (fbgraph reads the redirect; fb asks redirect=false)', async () => {
    const person = fixture.scoped(fixture.users.bob);
    const picture = await ok('get', `/${person}/picture`);
    assert.equal(picture.image, true);
    assert.match(picture.location, new RegExp(`^${server.url}/media/`));
    const [described] = await runFb(proxy, { version: 'v2.4' }, [{ path: `/${person}/picture`, params: { redirect: 'false', type: 'large' } }]);
    assert.ok('result' in described!, JSON.stringify(described));
    assert.equal(described.result.data.is_silhouette, true);
    assert.match(described.result.data.url, /^https:\/\/graph\.facebook\.com\/media\//);
    assert.equal(described.result.data.width, 200);
  });

  it('answers a feed write with the fields asked for (fbgraph) and a photo upload with its name (fb)', async () => {
    const token = await fixture.tokenFor(fixture.users.dave, ['public_profile', 'publish_actions']);
    const post = await ok('post', `/me/feed?access_token=${token}`, { message: 'Written by a suite', fields: 'message' });
    assert.deepEqual(Object.keys(post).sort(), ['id', 'message']);
    assert.equal(post.message, 'Written by a suite');
    const [photo] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      { path: '/me/photos', method: 'post', params: { source: { $png: pngBytes(4, 4).toString('base64') }, caption: 'Uploaded by a suite', fields: 'name' } },
    ]);
    assert.ok('result' in photo!, JSON.stringify(photo));
    assert.deepEqual(Object.keys(photo.result).sort(), ['id', 'name']);
    assert.equal(photo.result.name, 'Uploaded by a suite');
  });

  it('uses an app created under a fixed id and secret, then is refused with the exact message once it is deleted', async () => {
    const [id, secret] = ['987654321012345', 'f1xed5ecret0f1xed5ecret0f1xed5ec'];
    const created = loom('app', 'create', '--name', 'Suite App', '--id', id, '--secret', secret, '--json', '--db', fixture.path);
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(JSON.parse(created.stdout), { id, secret });
    const issued = await ok('get', '/oauth/access_token', { client_id: id, client_secret: secret, grant_type: 'client_credentials' });
    assert.equal(issued.access_token, `${id}|${secret}`);
    await ok('post', `/${id}/accounts/test-users`, { access_token: issued.access_token, installed: 'true', permissions: 'read_insights' });
    assert.deepEqual(await ok('post', `/${id}`, { access_token: issued.access_token, restrictions: JSON.stringify({ age: '21+' }) }), { success: true });
    const app = await ok('get', `/${id}?fields=id,name,restrictions&access_token=${issued.access_token}`);
    assert.deepEqual(app, { id, name: 'Suite App', restrictions: { age: '21+' } });

    const deleted = loom('app', 'delete', id, '--db', fixture.path);
    assert.equal(deleted.code, 0, deleted.stderr);
    const message = 'Error validating application. Application has been deleted.';
    for (const [path, params] of [
      ['/oauth/access_token', { client_id: id, client_secret: secret, grant_type: 'client_credentials' }],
      [`/${id}`, { access_token: `${id}|${secret}` }],
      [`/${id}/accounts/test-users`, { access_token: `${id}|${secret}` }],
    ] as const) {
      const { error } = await call('get', path, params);
      assert.equal(error?.message, message, path);
      assert.equal(error?.code, 190, path);
    }
  });
});
