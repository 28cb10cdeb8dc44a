import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import type { Store } from '../../src/store/store.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

const SUCCESS = '{"success":true}';

interface TestUser {
  id: string;
  access_token: string;
}

/**
 * What an unchanged Graph client does with Loom, over HTTP only: an app token from
 * `client_credentials`, test users made and befriended, each acting with their own token. The two
 * apps are registered as `loom app create` registers them.
 */
describe('acceptance: test users befriend and act as an SDK drives them', () => {
  let store: Store;
  let server: TestServer;
  let appA: AppRecord;
  let appB: AppRecord;
  const appTokens = new Map<number, string>();
  before(async () => {
    store = await openScratchStore();
    const now = Math.floor(Date.now() / 1000);
    [appA, appB] = [await registerApp(store, { name: 'Acceptance A', now }), await registerApp(store, { name: 'Acceptance B', now })];
    server = await startServer(store);
    for (const app of [appA, appB]) {
      const reply = await server.get('/oauth/access_token', {
        grant_type: 'client_credentials',
        client_id: String(app.id),
        client_secret: app.secret,
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.token_type, 'bearer');
      appTokens.set(app.id, reply.body.access_token);
    }
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  const appToken = (app: AppRecord) => appTokens.get(app.id)!;
  async function testUser(app: AppRecord, name: string): Promise<TestUser> {
    const reply = await server.form(`/v2.4/${app.id}/accounts/test-users`, {
      access_token: appToken(app),
      installed: 'true',
      name,
      permissions: 'public_profile,user_friends,user_posts,publish_actions',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.body.access_token, /^EAA/);
    return reply.body;
  }
  const befriend = (from: TestUser, toId: string) =>
    server.form(`/v2.4/${from.id}/friends/${toId}`, { access_token: from.access_token });
  function assertDoesNotExist(reply: Reply, id: string) {
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.code, 100);
    assert.match(reply.body.error.message, new RegExp(`Object with ID '${id}' does not exist`));
  }

  it('runs the whole flow', async () => {
    const uma = await testUser(appA, 'Uma Unwin');
    const vic = await testUser(appA, 'Vic Vale');

    assert.equal((await befriend(uma, vic.id)).text, SUCCESS);
    const pending = await server.get('/v2.4/me/friendrequests', { access_token: vic.access_token });
    assert.deepEqual(pending.body.data.map((request: any) => request.from.id), [uma.id]);
    assert.equal((await befriend(vic, uma.id)).text, SUCCESS);

    const umaPost = await server.form('/v2.4/me/feed', { access_token: uma.access_token, message: 'Uma was here' });
    const vicPost = await server.form('/v2.4/me/feed', { access_token: vic.access_token, message: 'Vic too' });
    assert.match(umaPost.body.id, new RegExp(`^${uma.id}_\\d+$`));
    assert.match(vicPost.body.id, new RegExp(`^${vic.id}_\\d+$`));
    const vicAsSeenByUma = await server.get(`/v2.4/${vic.id}`, { access_token: uma.access_token, fields: 'name,link' });
    assert.deepEqual(vicAsSeenByUma.body, { name: 'Vic Vale', link: `https://www.facebook.com/app_scoped_user_id/${vic.id}/`, id: vic.id });
    const vicsPosts = await server.get(`/v2.4/${vic.id}/posts`, { access_token: uma.access_token, fields: 'message' });
    assert.deepEqual(vicsPosts.body.data, [{ message: 'Vic too', id: vicPost.body.id }]);
    assert.equal((await server.form(`/v2.4/${umaPost.body.id}/likes`, { access_token: vic.access_token })).text, SUCCESS);
    const umasPost = await server.get(`/v2.4/${umaPost.body.id}`, { access_token: vic.access_token, fields: 'message,likes.summary(true)' });
    assert.equal(umasPost.body.message, 'Uma was here');
    assert.deepEqual(umasPost.body.likes.data, [{ name: 'Vic Vale', id: vic.id }]);

    // Wes uses app B only. His request to Uma names her by app B's id, which he learnt out of band.
    const wes = await testUser(appB, 'Wes Wilde');
    const umaInB = scopedIdsFor(appB).scope(scopedIdsFor(appA).unscope(uma.id)!);
    assert.equal((await befriend(wes, umaInB)).text, SUCCESS);
    const umasRequests = await server.get('/v2.4/me/friendrequests', { access_token: uma.access_token });
    assert.equal(umasRequests.body.data.length, 1);
    const wesInA: string = umasRequests.body.data[0].from.id;
    assert.equal(umasRequests.body.data[0].from.name, 'Wes Wilde');
    assert.equal((await befriend(uma, wesInA)).text, SUCCESS);

    const friends = await server.get('/v2.4/me/friends', { access_token: uma.access_token, fields: 'name' });
    assert.deepEqual(friends.body.data, [{ name: 'Vic Vale', id: vic.id }], 'Wes never authorised app A');
    assert.deepEqual(friends.body.summary, { total_count: 2 });
    const wesFriends = await server.get('/v2.4/me/friends', { access_token: wes.access_token, fields: 'name' });
    assert.deepEqual(wesFriends.body.summary, { total_count: 1 });
    assert.deepEqual(wesFriends.body.data, [], 'Uma never authorised app B');

    assert.notEqual(wesInA, wes.id, 'one person, two ids');
    // Wes never used app A: through A his profile shows only what is public, and his posts none.
    const wesThroughA = await server.get(`/v2.4/${wesInA}`, { access_token: uma.access_token, fields: 'name,link' });
    assert.deepEqual(wesThroughA.body, { name: 'Wes Wilde', id: wesInA });
    assert.deepEqual((await server.get(`/v2.4/${wesInA}/posts`, { access_token: uma.access_token })).body, { data: [] });
    assert.equal((await server.get('/v2.4/me', { access_token: wes.access_token })).body.id, wes.id);
    assertDoesNotExist(await server.get(`/v2.4/${wesInA}`, { access_token: wes.access_token }), wesInA);
    assertDoesNotExist(await server.get(`/v2.4/${wesInA}`, { access_token: appToken(appB) }), wesInA);
    assertDoesNotExist(await server.get(`/v2.4/${wes.id}`, { access_token: uma.access_token }), wes.id);
    assertDoesNotExist(await server.get(`/v2.4/${uma.id}`, { access_token: wes.access_token }), uma.id);
  });
});
