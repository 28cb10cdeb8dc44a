import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { issueAuthCode } from '../../src/auth/auth-codes.js';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { koalaRequest } from '../helpers/sdk-requests.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

/** Ruby's `CGI.escape`: every byte but letters, digits and `_.-~` percent-encoded, spaces as `+`. */
const cgiEscape = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

/**
 * koala's `BatchOperation#to_batch_params`: the arguments sorted by name and CGI-escaped, after
 * the URL for GET and DELETE and as the body otherwise, beside the batch arguments (`name`…).
 */
function koalaOperation(method: 'get' | 'post' | 'delete', url: string, args: Record<string, string> = {}, batchArgs: Record<string, unknown> = {}) {
  const encoded = Object.keys(args).sort().map((name) => `${name}=${cgiEscape(args[name]!)}`).join('&');
  const operation: Record<string, unknown> = { method, relative_url: url, ...batchArgs };
  if (encoded === '') return operation;
  if (method === 'post') return { ...operation, body: encoded };
  return { ...operation, relative_url: `${url}${url.includes('?') ? '&' : '?'}${encoded}` };
}

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

  it('batch: relating requests by name, get_objects("{result=get-friends:$.data.*.id}") escaped as every argument is', async () => {
    const getFriends = (batchArgs: Record<string, unknown>) => koalaOperation('get', 'me/friends', { limit: '5' }, { name: 'get-friends', ...batchArgs });
    const getObjects = (name: string) => koalaOperation('get', '', { ids: `{result=${name}:$.data.*.id}` });
    assert.equal(getObjects('get-friends').relative_url, '?ids=%7Bresult%3Dget-friends%3A%24.data.%2A.id%7D');
    const run = async (operations: unknown[]) => koalaRequest(server, api(), '/', { batch: JSON.stringify(operations) }, 'post');
    // "allows you create relationships between requests without omit_response_on_success"
    const omitted = await run([getFriends({}), getObjects('get-friends')]);
    assert.equal(omitted.status, 200, omitted.text);
    assert.equal(omitted.body[0], null);
    const friends = JSON.parse(omitted.body[1].body);
    assert.ok(Object.keys(friends).length > 1 && !Array.isArray(friends), omitted.body[1].body);
    // "… with omit_response_on_success" (false): the friends stay, as a collection.
    const kept = await run([getFriends({ omit_response_on_success: false }), getObjects('get-friends')]);
    assert.ok(Array.isArray(JSON.parse(kept.body[0].body).data));
    assert.deepEqual(JSON.parse(kept.body[1].body), friends);
    // "throws an error for badly-constructed request relationships": the whole call fails, so koala raises ClientError.
    const broken = await run([koalaOperation('get', 'me/friends', { limit: '5' }), getObjects('i-dont-exist')]);
    assert.equal(broken.status, 400, broken.text);
    assert.equal(broken.body.error.type, 'GraphBatchException');
  });

  it("batch: app_event_types with the app's token beside the user's (handles requests for two different tokens)", async () => {
    const batch = JSON.stringify([koalaOperation('get', 'me'), koalaOperation('get', `${fixture.app.id}/app_event_types`, { access_token: appToken })]);
    const answers = await koalaRequest(server, api(), '/', { batch }, 'post');
    assert.equal(answers.status, 200, answers.text);
    assert.equal(JSON.parse(answers.body[0].body).id, fixture.scoped(fixture.users.alice));
    assert.equal(answers.body[1].code, 200, answers.body[1].body);
    const events = JSON.parse(answers.body[1].body);
    assert.ok(Array.isArray(events.data) && events.data.some((event: { event_name: string }) => event.event_name === 'fb_mobile_purchase'));
  });

  it('put_wall_post with a properties hash (sent as JSON), read back as a list', async () => {
    const url = 'http://testdomain.koalatest.test/';
    const properties = { Link1: { text: 'Left', href: url }, other: { text: 'Straight ahead', href: `${url}?` } };
    const post = await koalaRequest(server, api(), 'me/feed', {
      message: 'body', picture: `${url}/images/logo.png`, name: "It's a big question", type: 'link', link: url, properties: JSON.stringify(properties),
    }, 'post');
    assert.equal(post.status, 200, post.text);
    const read = await koalaRequest(server, api(), post.body.id, { fields: 'properties' });
    assert.deepEqual(read.body.properties, [{ name: 'Link1', text: 'Left', href: url }, { name: 'other', text: 'Straight ahead', href: `${url}?` }]);
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
