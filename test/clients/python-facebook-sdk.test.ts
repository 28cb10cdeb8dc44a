import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { issueAuthCode } from '../../src/auth/auth-codes.js';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { facebookSdkRequest } from '../helpers/sdk-requests.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

/**
 * Python `facebook-sdk` (its GraphAPI methods, as its source builds their requests), with
 * FACEBOOK_GRAPH_URL and FACEBOOK_WWW_URL set to Loom and its default version, 3.1.
 */
describe('the requests of Python facebook-sdk', () => {
  const VERSION = 'v3.1';
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_friends', 'user_posts', 'user_photos', 'publish_actions']);
  });
  const graph = () => ({ accessToken: token });

  it('get_object, get_objects and get_version', async () => {
    const me = await facebookSdkRequest(server, graph(), `${VERSION}/me`, { args: { fields: 'id,name' } });
    assert.deepEqual(me.body, { id: fixture.scoped(fixture.users.alice), name: 'Alice Arden' });
    // get_version reads the version header of GET <version>/me: the version asked for answered.
    assert.equal(me.headers.get('facebook-api-version'), VERSION, 'the version that answered (in the v2.4 dialect)');
    const ids = [fixture.scoped(fixture.users.alice), fixture.scoped(fixture.users.bob)];
    const many = await facebookSdkRequest(server, graph(), `${VERSION}/`, { args: { ids: ids.join(','), fields: 'name' } });
    assert.deepEqual(Object.keys(many.body), ids);
    assert.equal(many.body[ids[1]!].name, 'Bob Brook');
  });

  it('get_connections, get_all_connections (following paging.next) and get_permissions', async () => {
    const first = await facebookSdkRequest(server, graph(), `${VERSION}/me/friends`, { args: { limit: '2' } });
    assert.equal(first.body.data.length, 2);
    // get_all_connections: the next link's query, parsed into lists, less access_token, which the client adds back.
    const next = new URL(first.body.paging.next);
    const args: Record<string, string[]> = {};
    for (const [name, value] of next.searchParams) if (name !== 'access_token') (args[name] ??= []).push(value);
    const second = await facebookSdkRequest(server, graph(), `${VERSION}/me/friends`, { args });
    assert.equal(second.body.data.length, 2);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);
    const permissions = await facebookSdkRequest(server, graph(), `${VERSION}/${fixture.scoped(fixture.users.alice)}/permissions`, { args: {} });
    const granted = permissions.body.data.filter((entry: { status: string }) => entry.status === 'granted').map((entry: { permission: string }) => entry.permission);
    assert.ok(granted.includes('publish_actions'));
  });

  it('put_object, put_comment, put_like (token in the query, empty body) and delete_object (DELETE)', async () => {
    const post = await facebookSdkRequest(server, graph(), `${VERSION}/me/feed`, { postArgs: { message: 'From facebook-sdk' } });
    assert.equal(post.status, 200, post.text);
    const comment = await facebookSdkRequest(server, graph(), `${VERSION}/${post.body.id}/comments`, { postArgs: { message: 'First!' } });
    assert.match(comment.body.id, /^\d+/);
    const like = await facebookSdkRequest(server, graph(), `${VERSION}/${post.body.id}/likes`, { postArgs: {} });
    assert.deepEqual(like.body, { success: true });
    const read = await facebookSdkRequest(server, graph(), `${VERSION}/${post.body.id}`, {
      args: { fields: 'message,comments.summary(true),likes.summary(true)' },
    });
    assert.equal(read.body.message, 'From facebook-sdk');
    assert.equal(read.body.comments.summary.total_count, 1);
    assert.equal(read.body.likes.summary.total_count, 1);
    const deleted = await facebookSdkRequest(server, graph(), `${VERSION}/${post.body.id}`, { method: 'DELETE' });
    assert.deepEqual(deleted.body, { success: true });
  });

  it('put_photo: a multipart upload with the token among the form fields', async () => {
    const photo = await facebookSdkRequest(server, graph(), `${VERSION}/me/photos`, {
      postArgs: { caption: 'From facebook-sdk' },
      files: [{ name: 'source', bytes: pngBytes(6, 3), filename: 'source', type: 'application/octet-stream' }],
    });
    assert.equal(photo.status, 200, photo.text);
    const read = await facebookSdkRequest(server, graph(), `${VERSION}/${photo.body.id}`, { args: { fields: 'width,height' } });
    assert.deepEqual([read.body.width, read.body.height], [6, 3]);
  });

  it('request() carries a batch', async () => {
    const batch = JSON.stringify([
      { method: 'GET', relative_url: 'me?fields=name' },
      { method: 'POST', relative_url: 'me/feed', body: 'message=Batched+by+facebook-sdk' },
    ]);
    const answers = await facebookSdkRequest(server, graph(), `${VERSION}/`, { postArgs: { batch } });
    assert.equal(answers.status, 200, answers.text);
    assert.deepEqual(answers.body.map((answer: { code: number }) => answer.code), [200, 200]);
    assert.equal(JSON.parse(answers.body[0].body).name, 'Alice Arden');
  });

  it('get_app_access_token, get_access_token_from_code, extend_access_token and debug_access_token', async () => {
    const app = { client_id: String(fixture.app.id), client_secret: fixture.app.secret };
    const appToken = await facebookSdkRequest(server, {}, `${VERSION}/oauth/access_token`, { args: { grant_type: 'client_credentials', ...app } });
    assert.equal(appToken.body.access_token, `${fixture.app.id}|${fixture.app.secret}`);
    const redirectUri = 'https://app.example/callback';
    // The dialog records the person's consent, then hands the code to the redirect URI.
    await fixture.tokenFor(fixture.users.carol, ['public_profile']);
    const code = await issueAuthCode(fixture.store, { appId: fixture.app.id, userId: fixture.users.carol, redirectUri, scopes: ['public_profile'], now: fixture.now });
    const exchanged = await facebookSdkRequest(server, {}, `${VERSION}/oauth/access_token`, { args: { code, redirect_uri: redirectUri, ...app } });
    assert.equal(exchanged.status, 200, exchanged.text);
    // extend_access_token: the current token goes both as fb_exchange_token and, added by request(), as access_token.
    const extended = await facebookSdkRequest(server, graph(), `${VERSION}/oauth/access_token`, {
      args: { ...app, grant_type: 'fb_exchange_token', fb_exchange_token: token },
    });
    assert.equal(extended.status, 200, extended.text);
    assert.equal(extended.body.expires_in, 60 * 86_400);
    const debugged = await facebookSdkRequest(server, {}, `${VERSION}/debug_token`, {
      args: { input_token: exchanged.body.access_token, access_token: `${fixture.app.id}|${fixture.app.secret}` },
    });
    assert.equal(debugged.body.data.is_valid, true, debugged.text);
    assert.equal(debugged.body.data.user_id, fixture.scoped(fixture.users.carol));
  });

  it('app_secret adds appsecret_proof to every call', async () => {
    const proved = await facebookSdkRequest(server, { accessToken: token, appSecret: fixture.app.secret }, `${VERSION}/me`, { args: { fields: 'id' } });
    assert.equal(proved.status, 200, proved.text);
    const wrong = await facebookSdkRequest(server, { accessToken: token, appSecret: 'wrong' }, `${VERSION}/me`, { args: { fields: 'id' } });
    assert.equal(wrong.status, 400);
  });

  it('get_auth_url names the sign-in dialog under FACEBOOK_WWW_URL', async () => {
    const query = new URLSearchParams({ client_id: String(fixture.app.id), redirect_uri: 'https://app.example/callback', scope: 'email,user_friends' });
    const dialog = await server.fetch(`${server.url}/${VERSION}/dialog/oauth?${query}`);
    assert.equal(dialog.status, 200);
    assert.match(dialog.headers.get('content-type') ?? '', /^text\/html/);
  });
});
