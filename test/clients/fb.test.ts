import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import { openCertificateAuthority } from '../../src/intercept/certificate-authority.js';
import { runFb, type FbProxy } from '../helpers/fb-child.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** npm `fb`, unmodified, through `loom serve --intercept`: it only knows https://graph.facebook.com. */
describe('npm fb through the intercepting proxy', () => {
  let fixture: Fixture;
  let server: TestServer;
  let proxy: FbProxy;
  before(async () => {
    fixture = await buildFixture();
    const authority = await openCertificateAuthority(join(mkdtempSync(join(tmpdir(), 'loom-ca-')), 'ca'));
    server = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), intercept: await authority.issueHostCredentials() });
    proxy = { proxyUrl: server.url, certificatePath: authority.certificatePath };
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  it('reads, writes and deletes with FB.api and FB.napi', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_posts', 'publish_actions']);
    const [me, posted, read, deleted, gone] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      { path: '/me', params: { fields: 'id,name' } },
      { path: '/me/feed', method: 'post', params: { message: 'Hello from fb' } },
      { path: 'me/feed', params: { fields: 'message', limit: 1 }, napi: true },
      { path: '/me/feed', method: 'get', params: { limit: 1, fields: 'id' } },
      { path: '/404', params: {} },
    ]);
    assert.deepEqual(me, { result: { id: fixture.scoped(fixture.users.alice), name: 'Alice Arden' } });
    assert.ok('result' in posted!, JSON.stringify(posted));
    const postId: string = posted.result.id;
    assert.equal((read as any).result.data[0].message, 'Hello from fb');
    assert.equal((deleted as any).result.data[0].id, postId);
    assert.ok('error' in gone!);
    assert.equal(gone.error.name, 'FacebookApiException');
    assert.equal(gone.error.response.error.code, 100);
    const [removed, after] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      { path: postId, method: 'delete' },
      { path: postId, params: { fields: 'id' } },
    ]);
    assert.deepEqual(removed, { result: { success: true } });
    assert.ok('error' in after!);
  });

  it('uploads a photo as multipart', async () => {
    const token = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_photos', 'publish_actions']);
    const [uploaded] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      { path: '/me/photos', method: 'post', params: { source: { $png: pngBytes(8, 6).toString('base64') }, caption: 'From fb' } },
    ]);
    assert.ok('result' in uploaded!, JSON.stringify(uploaded));
    const photo = await server.get(`/v2.4/${uploaded.result.id}`, { access_token: token, fields: 'width,height,name' });
    assert.deepEqual(photo.body, { width: 8, height: 6, name: 'From fb', id: uploaded.result.id });
  });

  it('asks for fields as an array, including nested ones, on graph.facebook.com and its beta host', async () => {
    const token = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_friends']);
    const [me, beta] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      { path: '/me', params: { fields: ['id', 'name', 'friends.limit(2){name}'] } },
      { path: '/me', params: { fields: ['name'] }, options: { beta: true } },
    ]);
    assert.ok('result' in me!, JSON.stringify(me));
    assert.equal(me.result.name, 'Alice Arden');
    assert.equal(me.result.friends.data.length, 2);
    assert.deepEqual(Object.keys(me.result.friends.data[0]), ['name', 'id']);
    assert.match(me.result.friends.paging.next, /^https:\/\/graph\.facebook\.com\/v2\.4\//);
    assert.deepEqual(beta, { result: { name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) } });
  });

  it('sends a batch, with a photo in attached_files', async () => {
    const token = await fixture.tokenFor(fixture.users.carol, ['public_profile', 'user_photos', 'user_posts', 'publish_actions']);
    const [answer] = await runFb(proxy, { version: 'v2.4', accessToken: token }, [
      {
        path: '',
        method: 'post',
        params: {
          batch: [
            { method: 'GET', relative_url: 'me?fields=name' },
            { method: 'POST', relative_url: 'me/feed', body: 'message=Batched+by+fb', name: 'post' },
            { method: 'GET', relative_url: '?ids={result=post:$.id}&fields=message' },
            { method: 'POST', relative_url: 'me/photos', body: 'caption=Attached', attached_files: 'file1' },
          ],
          file1: { $png: pngBytes(5, 4).toString('base64') },
        },
      },
    ]);
    assert.ok('result' in answer!, JSON.stringify(answer));
    const items = answer.result as { code: number; body: string }[];
    assert.equal(items.length, 4);
    assert.deepEqual(JSON.parse(items[0]!.body), { name: 'Carol Crane', id: fixture.scoped(fixture.users.carol) });
    assert.equal(items[1], null, 'a referenced operation answers null');
    const posts = JSON.parse(items[2]!.body);
    assert.deepEqual(Object.values(posts).map((post: any) => post.message), ['Batched by fb']);
    assert.equal(items[3]!.code, 200);
    const photo = await server.get(`/v2.4/${JSON.parse(items[3]!.body).id}`, { access_token: token, fields: 'width,height' });
    assert.deepEqual([photo.body.width, photo.body.height], [5, 4]);
  });

  it('signs calls with appsecret_proof given appSecret, and calls as another person with withAccessToken', async () => {
    const alice = await fixture.tokenFor(fixture.users.alice, ['public_profile']);
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile']);
    const [proved, other, wrong] = await runFb(proxy, { version: 'v2.4', accessToken: alice, appSecret: fixture.app.secret }, [
      { path: '/me', params: { fields: 'id' } },
      { path: '/me', params: { fields: 'id' }, withAccessToken: bob },
      { path: '/me', params: { fields: 'id' }, options: { appSecret: 'not-the-secret' } },
    ]);
    assert.deepEqual(proved, { result: { id: fixture.scoped(fixture.users.alice) } });
    assert.deepEqual(other, { result: { id: fixture.scoped(fixture.users.bob) } });
    assert.ok('error' in wrong!);
    assert.match(wrong.error.response.error.message, /appsecret_proof/);
  });

  it('keeps its token with setAccessToken and reads a signed request with parseSignedRequest (no request to the server)', async () => {
    const { FB, Facebook } = (await import('fb')).default;
    const own = new Facebook();
    own.setAccessToken('a-token');
    assert.equal(own.getAccessToken(), 'a-token');
    const payload = Buffer.from(JSON.stringify({ algorithm: 'HMAC-SHA256', user_id: '42', issued_at: 1 })).toString('base64url');
    const signature = createHmac('sha256', fixture.app.secret).update(payload).digest('base64url');
    assert.deepEqual(FB.parseSignedRequest(`${signature}.${payload}`, fixture.app.secret), { algorithm: 'HMAC-SHA256', user_id: '42', issued_at: 1 });
    assert.equal(FB.parseSignedRequest(`${signature}x.${payload}`, fixture.app.secret), undefined);
  });
});
