import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import graph from 'fbgraph';
import type { Fixture } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

/** Calls an fbgraph function and settles with its callback's `(error, result)`. */
function call(method: string, ...args: unknown[]): Promise<{ error: any; result: any }> {
  return new Promise((resolve) => graph[method](...args, (error: any, result: any) => resolve({ error, result })));
}

/** The result as a plain object (fbgraph parses form-encoded answers into null-prototype objects). */
async function ok(method: string, ...args: unknown[]): Promise<any> {
  const { error, result } = await call(method, ...args);
  assert.equal(error, null, JSON.stringify(error));
  return result !== null && typeof result === 'object' && !Array.isArray(result) ? { ...result } : result;
}

/**
 * The same client scenario (app token, test users, befriend, me, feed, like, delete, debug_token)
 * through npm `fbgraph` pinned to v2.0 and to v2.4: each version answers in its own shapes, and
 * fbgraph reads both (a bare `true` becomes `{data:"true"}`, a form-encoded token an object).
 */
describe('npm fbgraph pinned to v2.0 and to v2.4', () => {
  let fixture: Fixture;
  let server: TestServer;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    graph.setGraphUrl(server.url).setAccessToken(null).setAppSecret(null);
  });

  const shapes = {
    '2.0': {
      success: { data: 'true' },
      // user_posts came with v2.3; before, read_stream read feeds.
      permissions: 'publish_actions,read_stream',
      meKeys: ['id', 'first_name', 'last_name', 'link', 'locale', 'name', 'updated_time'],
      postKeys: ['id', 'from', 'message', 'actions', 'privacy', 'type', 'status_type', 'application', 'created_time', 'updated_time'],
    },
    '2.4': {
      success: { success: true },
      permissions: 'publish_actions,user_posts',
      meKeys: ['name', 'id'],
      postKeys: ['message', 'created_time', 'id'],
    },
  } as const;

  for (const version of ['2.0', '2.4'] as const) {
    it(`runs the client scenario with setVersion('${version}')`, async () => {
      graph.setVersion(version);
      const expected = shapes[version];

      const credentials = { client_id: String(fixture.app.id), client_secret: fixture.app.secret, grant_type: 'client_credentials' };
      const app = await ok('get', '/oauth/access_token', credentials);
      const appToken = `${fixture.app.id}|${fixture.app.secret}`;
      assert.equal(app.access_token, appToken);
      assert.equal(app.token_type, version === '2.0' ? undefined : 'bearer', 'v2.0 answers form-encoded, v2.4 JSON');

      const create = () => ok('post', `/${fixture.app.id}/accounts/test-users`, { installed: 'true', permissions: expected.permissions, access_token: appToken });
      const [first, second] = [await create(), await create()];
      assert.ok(first.access_token && second.access_token);

      // Befriending needs no user_friends: each side's own token asks.
      assert.deepEqual(await ok('post', `/${first.id}/friends/${second.id}`, { access_token: first.access_token }), expected.success);
      assert.deepEqual(await ok('post', `/${second.id}/friends/${first.id}`, { access_token: second.access_token }), expected.success);

      const me = await ok('get', '/me', { access_token: first.access_token });
      assert.equal(me.id, first.id);
      assert.deepEqual(Object.keys(me), expected.meKeys);

      const posted = await ok('post', '/me/feed', { message: `Hello from v${version}`, access_token: first.access_token });
      assert.match(posted.id, /^\d+_\d+$/);
      const feed = await ok('get', '/me/feed', { access_token: first.access_token });
      assert.equal(feed.data[0].id, posted.id);
      assert.deepEqual(Object.keys(feed.data[0]), expected.postKeys);

      assert.deepEqual(await ok('post', `/${posted.id}/likes`, { access_token: second.access_token }), expected.success);
      const likes = await ok('get', `/${posted.id}/likes`, { summary: 'true', access_token: first.access_token });
      assert.deepEqual(likes.summary, version === '2.0' ? { total_count: 1 } : { total_count: 1, can_like: true, has_liked: false });

      assert.deepEqual(await ok('del', `/${posted.id}`, { access_token: first.access_token }), expected.success);
      assert.equal((await call('get', `/${posted.id}`, { access_token: first.access_token })).error.code, 100);

      const debug = await ok('get', '/debug_token', { input_token: first.access_token, access_token: appToken });
      assert.equal(debug.data.is_valid, true);
      assert.equal(debug.data.user_id, first.id);

      for (const user of [first, second]) assert.deepEqual(await ok('del', `/${user.id}`, { access_token: appToken }), expected.success);
    });
  }

  it("lists photos and albums with setVersion('2.0'), an album's cover being one of its photos", async () => {
    graph.setVersion('2.0');
    const [cover] = fixture.photos;
    await fixture.store.write([{ op: 'updateObject', id: fixture.album, data: { name: 'Holidays', type: 'normal', privacy: 'friends', cover_photo: cover }, updatedTime: fixture.now }]);
    const token = { access_token: fixture.aliceToken };
    const photos = await ok('get', '/me/photos', token);
    assert.equal(photos.data.length, 5);
    for (const photo of photos.data) {
      assert.deepEqual(Object.keys(photo), ['id', 'from', 'name', 'picture', 'source', 'height', 'width', 'images', 'link', 'created_time', 'updated_time']);
    }
    const albums = await ok('get', '/me/albums', token);
    assert.deepEqual(Object.keys(albums.data[0]), ['id', 'from', 'name', 'link', 'privacy', 'type', 'created_time', 'updated_time', 'can_upload']);
    assert.equal((await ok('get', `/${fixture.album}`, { fields: 'cover_photo', ...token })).cover_photo, String(cover));
  });
});
