import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { addMediaGraph, type MediaGraph } from '../helpers/media-graph.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { mp4Bytes, quickTimeBytes, webmBytes } from '../helpers/videos.js';
import { inspectVideo } from '../../src/media/video-check.js';
import { Clock } from '../../src/clock/clock.js';

describe('video containers', () => {
  it('tells MP4, QuickTime and WebM apart by their bytes and reads the duration they record', () => {
    assert.deepEqual(inspectVideo(mp4Bytes({ seconds: 2.5 })), { contentType: 'video/mp4', length: 2.5 });
    assert.deepEqual(inspectVideo(mp4Bytes({ seconds: 3601.25, timescale: 90_000, version: 1 })), { contentType: 'video/mp4', length: 3601.25 });
    assert.deepEqual(inspectVideo(quickTimeBytes({ seconds: 7 })), { contentType: 'video/quicktime', length: 7 });
    assert.deepEqual(inspectVideo(quickTimeBytes()), { contentType: 'video/quicktime' });
    assert.deepEqual(inspectVideo(webmBytes({ seconds: 4.2 })), { contentType: 'video/webm', length: 4.2 });
    assert.deepEqual(inspectVideo(webmBytes()), { contentType: 'video/webm' });
    assert.deepEqual(inspectVideo(webmBytes({ seconds: 61.5, live: true })), { contentType: 'video/webm', length: 61.5 });
    assert.deepEqual(inspectVideo(mp4Bytes({ seconds: 30, largeMdat: true })), { contentType: 'video/mp4', length: 30 });
    for (const bytes of [pngBytes(2, 2), Buffer.from('not a video'), Buffer.alloc(0), mp4Bytes().subarray(0, 6)]) {
      assert.throws(() => inspectVideo(bytes), (error: any) => error.code === 352);
    }
  });
});

describe('videos over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let graph: MediaGraph;
  let token: string;
  let me: string;
  // The file host of these tests is on loopback, which Loom refuses to fetch unless allowed.
  const served = useFixtureServer({ allowPrivatePhotoUrls: true });
  before(async () => {
    ({ fixture, server } = served);
    graph = await addMediaGraph(fixture);
    token = fixture.aliceToken;
    me = fixture.scoped(fixture.users.alice);
  });

  let fileHost: Server;
  let fileUrl: string;
  const hosted = webmBytes({ seconds: 9.75, seed: 5 });
  before(async () => {
    fileHost = createServer((request, response) => {
      if (request.url === '/clip.webm') response.writeHead(200, { 'content-type': 'video/webm' }).end(hosted);
      else response.writeHead(404).end('no');
    });
    await new Promise<void>((resolve) => fileHost.listen(0, '127.0.0.1', resolve));
    fileUrl = `http://127.0.0.1:${(fileHost.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => fileHost.close(() => resolve())));

  function upload(path: string, file: Buffer | undefined, fields: Record<string, string> = {}, options: { part?: string; as?: string; target?: TestServer } = {}) {
    const target = options.target ?? server;
    const body = new FormData();
    body.set('access_token', options.as ?? token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    if (file) body.set(options.part ?? 'source', new Blob([new Uint8Array(file)], { type: 'video/mp4' }), 'clip.mp4');
    return target.fetch(`${target.url}${path}`, { method: 'POST', body });
  }

  it('round-trips an uploaded MP4: multipart in, the Video node and the same bytes back', async () => {
    const file = mp4Bytes({ seconds: 2.5, seed: 3 });
    const reply = await upload('/v2.4/me/videos', file, { title: 'Shuttle', description: 'The shuttle flies' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body), ['id']);
    assert.match(reply.body.id, /^\d+$/);
    const id = reply.body.id;

    const video = await server.get(`/v2.4/${id}`, {
      access_token: token,
      fields: 'id,title,description,length,source,picture,format,embed_html,permalink_url,from,created_time,updated_time',
    });
    assert.equal(video.status, 200, video.text);
    const embed = `<iframe src="https://www.facebook.com/video/embed?video_id=${id}" width="720" height="405" frameborder="0"></iframe>`;
    const picture = `${server.url}/media/placeholders/${id}-720x405.svg`;
    assert.deepEqual(video.body, {
      id,
      title: 'Shuttle',
      description: 'The shuttle flies',
      length: 2.5,
      source: video.body.source,
      picture,
      format: [{ embed_html: embed, filter: 'native', width: 720, height: 405, picture }],
      embed_html: embed,
      permalink_url: `/${me}/videos/${id}/`,
      from: { name: 'Alice Arden', id: me },
      created_time: '2025-10-09T08:53:20+0000',
      updated_time: '2025-10-09T08:53:20+0000',
    });
    assert.match(video.body.source, new RegExp(`^${server.url}/media/videos/[0-9a-f]{32}$`));
    const file2 = await fetch(video.body.source);
    assert.equal(file2.headers.get('content-type'), 'video/mp4');
    assert.ok(Buffer.from(await file2.arrayBuffer()).equals(file), 'the same bytes come back');

    const uploaded = await server.get('/v2.4/me/videos', { access_token: token, type: 'uploaded', fields: 'title' });
    assert.deepEqual(uploaded.body.data, [{ title: 'Shuttle', id }]);

    const deleted = await server.form(`/v2.4/${id}`, { access_token: token }, 'DELETE');
    assert.deepEqual(deleted.body, { success: true });
    assert.equal((await fetch(video.body.source)).status, 404, 'the file goes with the video');
    const none = await server.get('/v2.4/me/videos', { access_token: token, type: 'uploaded' });
    assert.deepEqual(none.body, { data: [] });
  });

  it('takes the file from a part of any name, or by file_url, and leaves length out when the file does not say', async () => {
    const quick = await upload('/v2.4/me/videos', quickTimeBytes({ seed: 4 }), { title: 'No duration' }, { part: 'movie' });
    assert.equal(quick.status, 200, quick.text);
    const read = await server.get(`/v2.4/${quick.body.id}`, { access_token: token, fields: 'title,length,source' });
    assert.deepEqual(Object.keys(read.body), ['title', 'source', 'id'], 'no length');
    assert.equal((await fetch(read.body.source)).headers.get('content-type'), 'video/quicktime');

    const byUrl = await upload('/v2.4/me/videos', undefined, { file_url: `${fileUrl}/clip.webm`, title: 'From afar' });
    assert.equal(byUrl.status, 200, byUrl.text);
    const remote = await server.get(`/v2.4/${byUrl.body.id}`, { access_token: token, fields: 'title,length,source' });
    assert.equal(remote.body.length, 9.75);
    const bytes = Buffer.from(await (await fetch(remote.body.source)).arrayBuffer());
    assert.ok(bytes.equals(hosted));
  });

  it('uploads a video inside a batch, from its attached file', async () => {
    const form = new FormData();
    form.append('access_token', token);
    form.append('batch', JSON.stringify([{ method: 'POST', relative_url: 'me/videos?fields=title,length', attached_files: 'clip', body: 'title=Batched' }]));
    form.append('clip', new Blob([new Uint8Array(webmBytes({ seconds: 3, seed: 6 }))], { type: 'video/webm' }), 'clip.webm');
    const reply = await server.fetch(`${server.url}/v2.4/`, { method: 'POST', body: form });
    assert.equal(reply.status, 200, reply.text);
    const [item] = reply.body;
    assert.equal(item.code, 200, JSON.stringify(item));
    const body = JSON.parse(item.body);
    assert.deepEqual({ title: body.title, length: body.length }, { title: 'Batched', length: 3 });
  });

  it('refuses other files, missing files and files past the configured limit, and a token without publish_actions', async () => {
    const image = await upload('/v2.4/me/videos', pngBytes(4, 4));
    assert.equal(image.status, 400);
    assert.equal(image.body.error.code, 352);
    const missing = await upload('/v2.4/me/videos', undefined, { title: 'nothing' });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /Requires upload file/);
    const gone = await upload('/v2.4/me/videos', undefined, { file_url: `${fileUrl}/missing.webm` });
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error.code, 389);
    assert.match(gone.body.error.message, /Unable to fetch video file from URL: .* answered with status 404/);
    const notHttp = await upload('/v2.4/me/videos', undefined, { file_url: 'file:///etc/passwd' });
    assert.match(notHttp.body.error.message, /The parameter file_url must be an absolute http or https address/);

    const small = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), maxVideoBytes: 200 });
    try {
      const big = await upload('/v2.4/me/videos', mp4Bytes({ seconds: 1 }), {}, { target: small });
      assert.equal(big.status, 400, big.text);
      assert.match(big.body.error.message, /larger than the limit of 200 bytes/);
      const within = mp4Bytes();
      assert.ok(within.length <= 200);
      const fits = await upload('/v2.4/me/videos', within, {}, { target: small });
      assert.equal(fits.status, 200, fits.text);
    } finally {
      await small.close();
    }

    const reader = await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_videos']);
    const refused = await upload('/v2.4/me/videos', mp4Bytes({ seconds: 1 }), {}, { as: reader });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 200);
    assert.match(refused.body.error.message, /publish_actions/);
  });

  it('lists the videos a person is tagged in by default, and nothing without user_videos', async () => {
    const tagged = await server.get('/v2.4/me/videos', { access_token: token, fields: 'title,length,from' });
    assert.deepEqual(tagged.body.data, [
      { title: 'Spinning wheel', length: 12.5, from: { name: 'Bob Brook', id: fixture.scoped(fixture.users.bob) }, id: String(graph.taggedVideo) },
    ]);
    const bad = await server.get('/v2.4/me/videos', { access_token: token, type: 'liked' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /type must be one of the following values: tagged, uploaded/);

    const without = await fixture.tokenFor(fixture.users.alice, ['public_profile']);
    const none = await server.get('/v2.4/me/videos', { access_token: without, type: 'uploaded' });
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, { data: [] });
    const own = await upload('/v2.4/me/videos', mp4Bytes({ seconds: 1, seed: 8 }), { title: 'Mine' });
    const node = await server.get(`/v2.4/${own.body.id}`, { access_token: without, fields: 'id,title' });
    assert.deepEqual(node.body, { id: own.body.id }, 'her own video\'s title needs her token to carry user_videos');
    const withScope = await server.get(`/v2.4/${own.body.id}`, { access_token: await fixture.tokenFor(fixture.users.alice, ['public_profile', 'user_videos']), fields: 'title' });
    assert.deepEqual(withScope.body, { title: 'Mine', id: own.body.id });
  });

  it('video-status-fields: embeddable, privacy with every list, and status from v2.4; unknown before', async () => {
    const id = String(graph.taggedVideo);
    const read = await server.get(`/v2.4/${id}`, { access_token: token, fields: 'privacy,status,embeddable' });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, {
      privacy: { description: 'Public', value: 'EVERYONE', friends: '', networks: '', allow: '', deny: '' },
      status: { video_status: 'ready' },
      embeddable: true,
      id,
    });
    for (const field of ['privacy', 'status', 'embeddable']) {
      const old = await server.get(`/v2.3/${id}`, { access_token: token, fields: field });
      assert.equal(old.status, 400, `${field} in v2.3: ${old.text}`);
      assert.equal(old.body.error.code, 100);
    }
  });

  it('likes and comments on a video, and shows its thumbnail', async () => {
    const id = String(graph.taggedVideo);
    assert.deepEqual((await server.form(`/v2.4/${id}/likes`, { access_token: token })).body, { success: true });
    const comment = await server.form(`/v2.4/${id}/comments`, { access_token: token, message: 'Lovely wheel' });
    assert.match(comment.body.id, /^\d+$/);
    const read = await server.get(`/v2.4/${id}`, {
      access_token: token,
      fields: 'likes.summary(true){name},comments{message},thumbnails',
    });
    assert.deepEqual(read.body.likes.data, [{ name: 'Alice Arden', id: me }]);
    assert.deepEqual(read.body.likes.summary, { total_count: 1, can_like: true, has_liked: true });
    assert.deepEqual(read.body.comments.data.map((item: any) => item.message), ['Lovely wheel']);
    assert.deepEqual(read.body.thumbnails, {
      data: [{ height: 405, width: 720, scale: 1, uri: `${server.url}/media/placeholders/${id}-720x405.svg`, is_preferred: true }],
    });
  });

  it('uploads to a group by a member only, and to a page by the page itself only', async () => {
    const ok = await upload(`/v2.4/${graph.groups.knitters}/videos`, webmBytes({ seconds: 1 }), { title: 'For the knitters' });
    assert.equal(ok.status, 200, ok.text);
    const listed = await server.get(`/v2.4/${graph.groups.knitters}/videos`, { access_token: token, fields: 'title' });
    assert.deepEqual(listed.body.data, [{ title: 'For the knitters', id: ok.body.id }]);
    const stranger = await upload(`/v2.4/${graph.groups.spinners}/videos`, webmBytes({ seconds: 1 }));
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.error.code, 200);
    const page = await upload(`/v2.4/${fixture.pages[0]}/videos`, webmBytes({ seconds: 1 }));
    assert.equal(page.status, 403);
  });

  it('describes the Video node with metadata=1', async () => {
    const read = await server.get(`/v2.4/${graph.taggedVideo}`, { access_token: token, metadata: '1' });
    assert.deepEqual(read.body.metadata.fields.map((field: any) => field.name), [
      'id', 'title', 'description', 'source', 'picture', 'length', 'format', 'embed_html', 'embeddable', 'privacy', 'status', 'permalink_url', 'from', 'created_time', 'updated_time',
    ]);
    assert.deepEqual(Object.keys(read.body.metadata.connections), ['likes', 'comments', 'thumbnails']);
    assert.equal(read.body.metadata.type, 'video');
  });
});
