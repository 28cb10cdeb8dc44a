import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { issueAuthCode } from '../../src/auth/auth-codes.js';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { koalaRequest } from '../helpers/sdk-requests.js';
import { useFixtureServer, type TestServer } from '../helpers/server.js';

/** Ruby `koala` (API, GraphBatchAPI, TestUsers, OAuth), as its source builds each method's request, with api_version v2.4. */
describe('the requests of Ruby koala', () => {
  const V = 'v2.4';
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  let appToken: string;
  const served = useFixtureServer({ allowPrivatePhotoUrls: true });
  before(async () => {
    ({ fixture, server } = served);
    token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_friends', 'user_posts', 'user_photos', 'publish_actions']);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });
  const api = () => ({ accessToken: token, apiVersion: V });

  it('get_object, get_object_metadata, get_objects, get_connections and get_page (the next page)', async () => {
    const me = await koalaRequest(server, api(), 'me', { fields: ['id', 'name'] });
    assert.deepEqual(me.body, { id: fixture.scoped(fixture.users.alice), name: 'Alice Arden' });
    const metadata = await koalaRequest(server, api(), 'me', { metadata: '1' });
    assert.equal(metadata.body.metadata.type, 'user');
    const ids = [fixture.scoped(fixture.users.alice), fixture.scoped(fixture.users.bob)];
    const many = await koalaRequest(server, api(), '', { ids: ids.join(','), fields: 'name' });
    assert.deepEqual(Object.keys(many.body), ids);
    const friends = await koalaRequest(server, api(), 'me/friends', { limit: '2' });
    assert.equal(friends.body.data.length, 2);
    // GraphCollection#next_page: the next link's path (with its version) and its parameters, each joined with commas.
    const next = new URL(friends.body.paging.next);
    const page = await koalaRequest(server, api(), next.pathname.slice(1), Object.fromEntries(next.searchParams));
    assert.equal(page.body.data.length, 2);
    assert.notEqual(page.body.data[0].id, friends.body.data[0].id);
  });

  it('put_wall_post, put_comment, put_like, delete_like (POST method=delete) and delete_object', async () => {
    const post = await koalaRequest(server, api(), 'me/feed', { message: 'From koala', link: 'https://loom.example/' }, 'post');
    assert.equal(post.status, 200, post.text);
    const id: string = post.body.id;
    assert.match((await koalaRequest(server, api(), `${id}/comments`, { message: 'First!' }, 'post')).body.id, /^\d+/);
    assert.deepEqual((await koalaRequest(server, api(), `${id}/likes`, {}, 'post')).body, { success: true });
    let read = await koalaRequest(server, api(), id, { fields: 'message,link,comments.summary(true),likes.summary(true)' });
    assert.deepEqual([read.body.message, read.body.comments.summary.total_count, read.body.likes.summary.total_count], ['From koala', 1, 1]);
    assert.deepEqual((await koalaRequest(server, api(), `${id}/likes`, {}, 'delete')).body, { success: true });
    read = await koalaRequest(server, api(), id, { fields: 'likes.summary(true)' });
    assert.equal(read.body.likes.summary.total_count, 0);
    assert.deepEqual((await koalaRequest(server, api(), id, {}, 'delete')).body, { success: true });
    assert.equal((await koalaRequest(server, api(), id)).status, 400);
  });

  it('delete_connections takes back one permission', async () => {
    const own = await fixture.tokenFor(fixture.users.dave, ['public_profile', 'user_posts']);
    const removed = await koalaRequest(server, { accessToken: own, apiVersion: V }, 'me/permissions/user_posts', {}, 'delete');
    assert.deepEqual(removed.body, { success: true });
    const permissions = await koalaRequest(server, { accessToken: own, apiVersion: V }, 'me/permissions');
    assert.deepEqual(permissions.body.data.find((entry: { permission: string }) => entry.permission === 'user_posts')?.status, 'declined');
  });

  it('put_picture from a file (multipart source) and from a URL, and get_picture_data (redirect=false)', async () => {
    const uploaded = await koalaRequest(server, api(), 'me/photos', { caption: 'From koala' }, 'post', [
      { name: 'source', bytes: pngBytes(7, 5), filename: 'cat.png', type: 'image/png' },
    ]);
    assert.equal(uploaded.status, 200, uploaded.text);
    const photo = await koalaRequest(server, api(), uploaded.body.id, { fields: 'width,height,source' });
    assert.deepEqual([photo.body.width, photo.body.height], [7, 5]);
    const byUrl = await koalaRequest(server, api(), 'me/photos', { url: photo.body.source }, 'post');
    assert.equal(byUrl.status, 200, byUrl.text);
    const picture = await koalaRequest(server, api(), 'me/picture', { redirect: 'false' });
    assert.deepEqual(Object.keys(picture.body.data).sort().slice(0, 2), ['is_silhouette', 'url']);
  });

  it('batch: GET arguments in relative_url, POST arguments in body, files as attached_files', async () => {
    const batch = JSON.stringify([
      { method: 'get', relative_url: 'me?fields=name' },
      { method: 'post', relative_url: 'me/feed', body: 'message=Batched+by+koala' },
      { method: 'post', relative_url: 'me/photos', body: 'caption=Attached', attached_files: 'op3_file0' },
      { method: 'delete', relative_url: `${fixture.scoped(fixture.users.alice)}_1` },
    ]);
    const answers = await koalaRequest(server, api(), '/', { batch }, 'post', [
      { name: 'op3_file0', bytes: pngBytes(2, 2), filename: 'a.png', type: 'image/png' },
    ]);
    assert.equal(answers.status, 200, answers.text);
    assert.deepEqual(answers.body.slice(0, 3).map((answer: { code: number }) => answer.code), [200, 200, 200]);
    assert.equal(JSON.parse(answers.body[0].body).name, 'Alice Arden');
    assert.equal(answers.body[3].code, 400, 'an unknown post fails alone');
  });

  it('set_app_restrictions: a POST to the app with the restrictions as JSON', async () => {
    const app = { accessToken: appToken, apiVersion: V };
    const set = await koalaRequest(server, app, String(fixture.app.id), { restrictions: JSON.stringify({ age: '21+' }) }, 'post');
    assert.deepEqual(set.body, { success: true }, set.text);
    const read = await koalaRequest(server, app, String(fixture.app.id), { fields: 'restrictions' });
    assert.deepEqual(read.body.restrictions, { age: '21+' });
  });

  it('debug_token with the app token', async () => {
    const debugged = await koalaRequest(server, { accessToken: appToken, apiVersion: V }, 'debug_token', { input_token: token });
    assert.equal(debugged.body.data.is_valid, true, debugged.text);
  });

  it('TestUsers: an app token from OAuth, create, list, update, befriend (with appsecret_proof) and delete', async () => {
    // TestUsers.new(app_id:, secret:) asks OAuth#get_app_access_token: a POST to /oauth/access_token.
    const issued = await koalaRequest(server, { apiVersion: V }, '/oauth/access_token', {
      client_id: String(fixture.app.id), client_secret: fixture.app.secret, grant_type: 'client_credentials',
    }, 'post');
    assert.equal(issued.body.access_token, appToken);
    const app = { accessToken: issued.body.access_token, apiVersion: V };
    const path = `/${fixture.app.id}/accounts/test-users`;
    const [one, two] = [
      (await koalaRequest(server, app, path, { installed: 'true', permissions: ['read_insights', 'user_posts'] }, 'post')).body,
      (await koalaRequest(server, app, path, { installed: 'true', permissions: 'read_insights' }, 'post')).body,
    ];
    assert.ok(one.access_token && two.access_token, JSON.stringify([one, two]));
    const listed = await koalaRequest(server, app, path);
    assert.deepEqual(listed.body.data.map((user: { id: string }) => user.id).filter((id: string) => [one.id, two.id].includes(id)).sort(), [one.id, two.id].sort());
    assert.deepEqual((await koalaRequest(server, app, one.id, { name: 'Renamed Koala' }, 'post')).body, { success: true });
    const secret = fixture.app.secret;
    const first = await koalaRequest(server, { accessToken: one.access_token, appSecret: secret, apiVersion: V }, `${one.id}/friends/${two.id}`, {}, 'post');
    const second = await koalaRequest(server, { accessToken: two.access_token, appSecret: secret, apiVersion: V }, `${two.id}/friends/${one.id}`, {}, 'post');
    assert.deepEqual([first.body, second.body], [{ success: true }, { success: true }]);
    const renamed = await koalaRequest(server, { accessToken: two.access_token, apiVersion: V }, one.id, { fields: 'name' });
    assert.equal(renamed.body.name, 'Renamed Koala');
    assert.deepEqual((await koalaRequest(server, app, one.id, {}, 'delete')).body, { success: true });
    // delete_all: the remaining test users deleted in batches of delete_object operations.
    const three = (await koalaRequest(server, app, path, { installed: 'false' }, 'post')).body;
    const batch = JSON.stringify([two.id, three.id].map((id) => ({ method: 'delete', relative_url: id })));
    const deleted = await koalaRequest(server, app, '/', { batch }, 'post');
    assert.deepEqual(deleted.body.map((answer: { body: string }) => JSON.parse(answer.body)), [{ success: true }, { success: true }]);
    const left = await koalaRequest(server, app, path);
    assert.ok(!left.body.data.some((user: { id: string }) => [one.id, two.id, three.id].includes(user.id)));
  });

  it('OAuth: get_access_token_info (code) and exchange_access_token_info (POST fb_exchange_token)', async () => {
    const app = { client_id: String(fixture.app.id), client_secret: fixture.app.secret };
    const redirectUri = 'https://app.example/callback';
    await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const code = await issueAuthCode(fixture.store, { appId: fixture.app.id, userId: fixture.users.bob, redirectUri, scopes: ['public_profile'], now: fixture.now });
    const info = await koalaRequest(server, { apiVersion: V }, '/oauth/access_token', { ...app, code, redirect_uri: redirectUri });
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.token_type, 'bearer');
    const exchanged = await koalaRequest(server, { apiVersion: V }, '/oauth/access_token', { ...app, grant_type: 'fb_exchange_token', fb_exchange_token: info.body.access_token }, 'post');
    assert.equal(exchanged.status, 200, exchanged.text);
    assert.equal(exchanged.body.expires_in, 60 * 86_400);
  });
});
