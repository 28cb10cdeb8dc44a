import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { startServer, type TestServer } from '../helpers/server.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-media-recovery-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Where a key's file lies in a media folder, published or staged. */
const fileOf = (mediaDir: string, key: string, staged = false) => join(mediaDir, 'photos', key.slice(0, 2), staged ? `${key}.staged` : key);
/** Sets a file's times two hours back: older than any grace period, without waiting for it. */
const ageFile = (path: string) => {
  const twoHoursAgo = Clock.real().now() - 7200;
  utimesSync(path, twoHoursAgo, twoHoursAgo);
};

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Clock.real().now() + 20;
  while (!condition()) {
    assert.ok(Clock.real().now() < deadline, `${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('media a crash left behind, on a running server', () => {
  let fixture: Fixture;
  let server: TestServer;
  const mediaDir = join(directory, 'media');
  const control = (path: string, body: unknown = {}) =>
    server.fetch(`${server.url}/_loom${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    fixture = await buildFixture();
    // Sweeps every 50 ms, so the test sees several; files stay a minute before they may go.
    const mediaSweep = { everyMs: 50, graceMs: 60_000, report: () => {} };
    server = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), mediaDir, mediaSweep, recordStart: true });
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  async function uploadPhoto(seed: number): Promise<{ id: string; source: string; key: string; bytes: Buffer }> {
    const bytes = pngBytes(6, 4, seed);
    const body = new FormData();
    body.set('access_token', fixture.aliceToken);
    body.set('no_story', '1');
    body.set('source', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
    const reply = await server.fetch(`${server.url}/v2.4/me/photos`, { method: 'POST', body });
    assert.equal(reply.status, 200, reply.text);
    const { source } = (await server.get(`/v2.4/${reply.body.id}`, { access_token: fixture.aliceToken, fields: 'source' })).body;
    return { id: reply.body.id, source, key: new URL(source).pathname.split('/').pop()!, bytes };
  }

  const bytesAt = async (url: string) => {
    const response = await fetch(url);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it("publishes a committed photo's staged file when a read misses it", async () => {
    const photo = await uploadPhoto(1);
    // As another process leaves it when killed between its commit and the publish.
    renameSync(fileOf(mediaDir, photo.key), fileOf(mediaDir, photo.key, true));
    const read = await bytesAt(photo.source);
    assert.equal(read.status, 200);
    assert.deepEqual(read.bytes, photo.bytes);
    assert.equal(existsSync(fileOf(mediaDir, photo.key)), true, 'the file is in place for good');
    assert.equal(existsSync(fileOf(mediaDir, photo.key, true)), false);
  });

  it('removes what no row uses with its periodic sweep, and keeps what rows use and files being written', async () => {
    const kept = await uploadPhoto(2);
    ageFile(fileOf(mediaDir, kept.key));
    const put = (key: string, staged: boolean, old: boolean) => {
      const path = fileOf(mediaDir, key, staged);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, 'bytes');
      if (old) ageFile(path);
      return path;
    };
    // Left by uploads killed before their commit, one long ago and one that may be under way now.
    const orphan = put(randomBytes(16).toString('hex'), true, true);
    const writing = put(randomBytes(16).toString('hex'), true, false);
    // Left by a delete killed after its commit.
    const unused = put(randomBytes(16).toString('hex'), false, true);
    await until(() => !existsSync(orphan) && !existsSync(unused), 'the sweep of the orphaned files');
    assert.equal(existsSync(writing), true, 'a file written just now is left to its upload');
    assert.equal((await bytesAt(kept.source)).status, 200, 'a photo keeps its file');
  });

  it('keeps the file of a photo a snapshot holds through its delete, a reset and the sweeps, for the restore', async () => {
    const photo = await uploadPhoto(3);
    ageFile(fileOf(mediaDir, photo.key));
    assert.equal((await control('/snapshots', { name: 'with-photo' })).status, 200);
    const deleted = await server.fetch(`${server.url}/v2.4/${photo.id}?access_token=${fixture.aliceToken}`, { method: 'DELETE' });
    assert.equal(deleted.text, '{"success":true}');
    assert.equal(existsSync(fileOf(mediaDir, photo.key)), true, 'the delete leaves the file a snapshot points at');
    assert.equal((await control('/reset')).status, 200);
    // A file nothing uses is swept within a few periods, as the test before shows; this one stays.
    const unused = fileOf(mediaDir, randomBytes(16).toString('hex'));
    mkdirSync(join(unused, '..'), { recursive: true });
    writeFileSync(unused, 'bytes');
    ageFile(unused);
    await until(() => !existsSync(unused), 'a sweep after the reset');
    assert.equal(existsSync(fileOf(mediaDir, photo.key)), true, 'the snapshot still points at the file');

    assert.equal((await control('/snapshots/with-photo/restore')).status, 200);
    const read = await bytesAt(photo.source);
    assert.equal(read.status, 200);
    assert.deepEqual(read.bytes, photo.bytes);
  });
});
