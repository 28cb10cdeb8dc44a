import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { isPrivateAddress } from '../../src/media/fetch-image.js';
import { pngBytes } from '../helpers/images.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

describe('photos and albums over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  let me: string;
  // The image host of these tests is on loopback, which Loom refuses to fetch unless allowed.
  const served = useFixtureServer({ allowPrivatePhotoUrls: true });
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
    me = fixture.scoped(fixture.users.alice);
  });

  /** A server on loopback that hands out one image, for uploads by `url`. */
  let imageHost: Server;
  let imageUrl: string;
  const hosted = pngBytes(7, 5, 9);
  before(async () => {
    imageHost = createServer((request, response) => {
      if (request.url === '/cat.png') response.writeHead(200, { 'content-type': 'image/png' }).end(hosted);
      else response.writeHead(404).end('no');
    });
    await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => imageHost.close(() => resolve())));

  function upload(path: string, file: Buffer | undefined, fields: Record<string, string> = {}, partName = 'source', target = server) {
    const body = new FormData();
    body.set('access_token', token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    if (file) body.set(partName, new Blob([new Uint8Array(file)], { type: 'image/png' }), 'picture.png');
    return target.fetch(`${target.url}${path}`, { method: 'POST', body });
  }

  async function bytesAt(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const response = await fetch(url);
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('round-trips an uploaded photo: multipart in, the same bytes back from its source', async () => {
    const image = pngBytes(12, 8);
    const reply = await upload('/v2.4/me/photos', image, { caption: 'Loom at dusk' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body), ['id', 'post_id']);
    assert.match(reply.body.id, /^\d+$/);
    assert.match(reply.body.post_id, new RegExp(`^${me}_\\d+$`));

    const photo = await server.get(`/v2.4/${reply.body.id}`, { access_token: token, fields: 'name,width,height,source,images,from{name}' });
    assert.equal(photo.status, 200);
    assert.equal(photo.body.name, 'Loom at dusk');
    assert.deepEqual([photo.body.width, photo.body.height], [12, 8]);
    assert.deepEqual(photo.body.images, [{ height: 8, width: 12, source: photo.body.source }]);
    const served = await bytesAt(photo.body.source);
    assert.equal(served.status, 200);
    assert.equal(served.type, 'image/png');
    assert.ok(served.bytes.equals(image), 'the same bytes come back');

    const story = await server.get(`/v2.4/${reply.body.post_id}`, { access_token: token, fields: 'message,type,status_type,object_id,full_picture' });
    assert.deepEqual(story.body, {
      message: 'Loom at dusk',
      type: 'photo',
      status_type: 'added_photos',
      object_id: reply.body.id,
      full_picture: photo.body.source,
      id: reply.body.post_id,
    });
    const feed = await server.get('/v2.4/me/feed', { access_token: token, limit: '1', fields: 'id' });
    assert.equal(feed.body.data[0].id, reply.body.post_id);
    const photos = await server.get('/v2.4/me/photos', { access_token: token, limit: '1', fields: 'id' });
    assert.equal(photos.body.data[0].id, reply.body.id);
  });

  it('takes the file from a part of any name, and an image by url', async () => {
    for (const partName of ['file', 'image', 'x']) {
      const reply = await upload('/v2.4/me/photos', pngBytes(3, 3, partName.length), { no_story: 'true' }, partName);
      assert.equal(reply.status, 200, `${partName}: ${reply.text}`);
      assert.deepEqual(Object.keys(reply.body), ['id'], 'no story, no post_id');
    }
    const byUrl = await upload('/v2.4/me/photos', undefined, { url: `${imageUrl}/cat.png`, message: 'from afar' });
    assert.equal(byUrl.status, 200, byUrl.text);
    const photo = await server.get(`/v2.4/${byUrl.body.id}`, { access_token: token, fields: 'source,width,height,name' });
    assert.deepEqual([photo.body.width, photo.body.height, photo.body.name], [7, 5, 'from afar']);
    assert.ok((await bytesAt(photo.body.source)).bytes.equals(hosted));
  });

  it('refuses non-images, missing files, unreachable urls and oversized images with clear errors', async () => {
    const text = await upload('/v2.4/me/photos', Buffer.from('this is not an image at all'));
    assert.equal(text.status, 400);
    assert.equal(text.body.error.code, 324);
    assert.match(text.body.error.message, /invalid image file/);

    const missing = await upload('/v2.4/me/photos', undefined, { caption: 'nothing attached' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 324);
    assert.match(missing.body.error.message, /Requires upload file/);

    const gone = await upload('/v2.4/me/photos', undefined, { url: `${imageUrl}/missing.png` });
    assert.equal(gone.body.error.code, 324);
    assert.match(gone.body.error.message, /answered with status 404/);
    const notHttp = await upload('/v2.4/me/photos', undefined, { url: 'file:///etc/passwd' });
    assert.equal(notHttp.body.error.code, 100);

    const small = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), maxImageBytes: 2_000 });
    try {
      const big = await upload('/v2.4/me/photos', pngBytes(200, 200), {}, 'source', small);
      assert.equal(big.status, 400);
      assert.equal(big.body.error.code, 100);
      assert.match(big.body.error.message, /larger than the limit of 2000 bytes/);
      const bigByUrl = await upload('/v2.4/me/photos', undefined, { url: `${imageUrl}/cat.png` }, 'source', server);
      assert.equal(bigByUrl.status, 200, 'the same image is fine under the default limit');
      const twoFiles = new FormData();
      twoFiles.set('access_token', token);
      twoFiles.append('a', new Blob([new Uint8Array(pngBytes(2, 2))]), 'a.png');
      twoFiles.append('b', new Blob([new Uint8Array(pngBytes(2, 2))]), 'b.png');
      const two = await small.fetch(`${small.url}/v2.4/me/photos`, { method: 'POST', body: twoFiles });
      assert.equal(two.status, 400);
      assert.match(two.body.error.message, /one image per request/);
    } finally {
      await small.close();
    }
    const photos = await server.get('/v2.4/me/photos', { access_token: token, limit: '100', fields: 'id' });
    const stored = readdirSync(join(server.mediaDir, 'photos'), { recursive: true }).filter((name) => String(name).length === 35);
    assert.ok(stored.length <= photos.body.data.length, 'refused uploads leave no files behind');
  });

  it('refuses photo urls on loopback and private networks unless allowed', async () => {
    const guarded = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now) });
    try {
      const port = new URL(imageUrl).port;
      for (const url of [`${imageUrl}/cat.png`, `http://localhost:${port}/cat.png`, `http://[::1]:${port}/cat.png`, `http://[::ffff:127.0.0.1]:${port}/cat.png`, 'http://10.1.2.3/cat.png', 'http://169.254.169.254/latest']) {
        const refused = await upload('/v2.4/me/photos', undefined, { url }, 'source', guarded);
        assert.equal(refused.status, 400, url);
        assert.equal(refused.body.error.code, 100, url);
        assert.match(refused.body.error.message, /private network address/, url);
      }
    } finally {
      await guarded.close();
    }
    assert.equal(isPrivateAddress('192.168.1.10'), true);
    assert.equal(isPrivateAddress('::ffff:127.0.0.1'), true);
    assert.equal(isPrivateAddress('::ffff:7f00:1'), true);
    assert.equal(isPrivateAddress('93.184.216.34'), false);
    assert.equal(isPrivateAddress('2606:4700::1111'), false);
  });

  it('creates albums and adds photos to them, for their owner only', async () => {
    const created = await server.fetch(`${server.url}/v2.4/me/albums`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token, name: 'Workshop', message: 'Looms and yarn' }),
    });
    assert.equal(created.status, 200, created.text);
    const album = created.body.id as string;
    const photo = await upload(`/v2.4/${album}/photos`, pngBytes(4, 4), { caption: 'warp' });
    assert.equal(photo.status, 200, photo.text);

    const read = await server.get(`/v2.4/${album}`, { access_token: token, fields: 'name,description,count,from{name},photos{name}' });
    assert.equal(read.body.name, 'Workshop');
    assert.equal(read.body.description, 'Looms and yarn');
    assert.equal(read.body.count, 1);
    assert.deepEqual(read.body.photos.data.map((item: { name: string }) => item.name), ['warp']);
    const photoAlbum = await server.get(`/v2.4/${photo.body.id}`, { access_token: token, fields: 'album{name}' });
    assert.equal(photoAlbum.body.album.name, 'Workshop');
    const albums = await server.get('/v2.4/me/albums', { access_token: token, limit: '1', fields: 'name' });
    assert.equal(albums.body.data[0].name, 'Workshop');

    const nameless = await server.fetch(`${server.url}/v2.4/me/albums?access_token=${token}`, { method: 'POST' });
    assert.equal(nameless.status, 400);
    assert.match(nameless.body.error.message, /parameter name is required/);

    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_photos', 'publish_actions']);
    const intruder = new FormData();
    intruder.set('access_token', bob);
    intruder.set('source', new Blob([new Uint8Array(pngBytes(2, 2))]), 'x.png');
    const refused = await server.fetch(`${server.url}/v2.4/${album}/photos`, { method: 'POST', body: intruder });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 200);
    const onAlice = await server.fetch(`${server.url}/v2.4/${me}/photos`, { method: 'POST', body: intruder });
    assert.equal(onAlice.status, 403);
  });

  it('deletes a photo with its image', async () => {
    const reply = await upload('/v2.4/me/photos', pngBytes(5, 5, 3), { no_story: '1' });
    const photo = await server.get(`/v2.4/${reply.body.id}`, { access_token: token, fields: 'source' });
    const removed = await server.fetch(`${server.url}/v2.4/${reply.body.id}?access_token=${token}`, { method: 'DELETE' });
    assert.equal(removed.text, '{"success":true}');
    assert.equal((await server.get(`/v2.4/${reply.body.id}`, { access_token: token })).status, 400);
    assert.equal((await bytesAt(photo.body.source)).status, 404);
  });

  it("keeps a photo's image when its story is deleted, and deletes the photo's stories and their comments with it", async () => {
    const remove = (id: string) => server.fetch(`${server.url}/v2.4/${id}?access_token=${token}`, { method: 'DELETE' });
    const comment = async (id: string) => (await server.form(`/v2.4/${id}/comments`, { access_token: token, message: 'nice' })).body.id as string;

    const kept = (await upload('/v2.4/me/photos', pngBytes(6, 6, 4), { caption: 'kept' })).body;
    const source = (await server.get(`/v2.4/${kept.id}`, { access_token: token, fields: 'source' })).body.source;
    const story = await server.get(`/v2.4/${kept.post_id}`, { access_token: token, fields: 'full_picture,picture' });
    assert.equal(story.body.full_picture, source);
    assert.equal(story.body.picture, `${source}?size=small`);
    assert.equal((await remove(kept.post_id)).text, '{"success":true}');
    assert.equal((await server.get(`/v2.4/${kept.id}`, { access_token: token, fields: 'name' })).body.name, 'kept');
    assert.equal((await bytesAt(source)).status, 200, 'the photo keeps its image');

    const gone = (await upload('/v2.4/me/photos', pngBytes(6, 6, 5), { caption: 'gone' })).body;
    const goneSource = (await server.get(`/v2.4/${gone.id}`, { access_token: token, fields: 'source' })).body.source;
    const comments = [await comment(gone.id), await comment(gone.post_id)];
    assert.equal((await remove(gone.id)).text, '{"success":true}');
    for (const id of [gone.id, gone.post_id, ...comments]) {
      const read = await server.get(`/v2.4/${id}`, { access_token: token });
      assert.equal(read.status, 400, `${id} is gone`);
    }
    assert.equal((await bytesAt(goneSource)).status, 404);
    const feed = await server.get('/v2.4/me/feed', { access_token: token, limit: '5', fields: 'id' });
    assert.ok(!feed.body.data.some((post: { id: string }) => post.id === gone.post_id), 'the story left the feed');
  });

  it('redirects picture edges to the image, or describes it with redirect=false', async () => {
    const redirect = await fetch(`${server.url}/v2.4/me/picture?access_token=${token}`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    const location = redirect.headers.get('location')!;
    assert.equal(location, `${server.url}/media/silhouette.svg`);
    const silhouette = await bytesAt(location);
    assert.equal(silhouette.status, 200);
    assert.equal(silhouette.type, 'image/svg+xml');

    const described = await server.get('/v2.4/me/picture', { access_token: token, redirect: 'false' });
    assert.equal(described.status, 200);
    assert.deepEqual(described.body, { data: { is_silhouette: true, url: location } });
  });

  it('draws placeholders for photos without uploaded bytes', async () => {
    const photos = await server.get(`/v2.4/${fixture.album}/photos`, { access_token: token, limit: '1', fields: 'source,width,height' });
    const placeholder = await bytesAt(photos.body.data[0].source);
    assert.equal(placeholder.status, 200);
    assert.equal(placeholder.type, 'image/svg+xml');
    assert.match(placeholder.bytes.toString(), /<svg[^>]* width="800" height="600"/);
    assert.match(photos.body.data[0].source, /\/media\/placeholders\/\d+-800x600\.svg$/, 'the address says all the drawing needs');
    assert.equal((await bytesAt(`${server.url}/media/placeholders/${fixture.users.alice}.svg`)).status, 404);
  });

  it('answers bodies over the limit with a Graph error, not a dropped connection', async () => {
    const huge = await server.fetch(`${server.url}/v2.4/me/feed?access_token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `message=${'x'.repeat(1024 * 1024 + 10)}`,
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error.code, 100);
    assert.match(huge.body.error.message, /larger than the limit of 1048576 bytes/);
  });
});
