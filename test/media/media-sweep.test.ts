import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MediaStore } from '../../src/media/media-store.js';
import { sweepMedia } from '../../src/media/media-sweep.js';
import type { Store } from '../../src/store/store.js';
import { openScratchStore } from '../helpers/test-store.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-sweep-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const HOUR_AGO = Date.now() - 3_600_000;

describe('the media sweep', () => {
  let store: Store;
  let media: MediaStore;
  before(async () => {
    store = await openScratchStore();
    media = new MediaStore(join(directory, 'media'));
  });
  after(() => store.close());

  /** Every file under the media directory, staged ones with their suffix. */
  const files = () => readdirSync(media.photosDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  const age = (key: string, staged: boolean) => {
    const path = join(media.photosDir, key.slice(0, 2), staged ? `${key}.staged` : key);
    utimesSync(path, HOUR_AGO / 1000, HOUR_AGO / 1000);
  };
  const photoRow = async (key: string) =>
    store.write([{ op: 'createObject', object: { type: 'photo', owner: null, createdTime: 1, updatedTime: 1, data: { image: { key, contentType: 'image/png' } } } }]);

  it('stages an upload under a temporary name until it is published', async () => {
    const key = await media.stage(Buffer.from('bytes'));
    assert.equal(await media.read(key), undefined, 'not readable before its row commits');
    await media.publish(key);
    assert.deepEqual(await media.read(key), Buffer.from('bytes'));
    await media.remove(key);
  });

  it('publishes files whose row committed, removes those nobody uses, and leaves recent ones', async () => {
    // A crash after the row committed, before the file was put in place.
    const committed = await media.stage(Buffer.from('committed'));
    await photoRow(committed);
    age(committed, true);
    // A crash before the row committed.
    const abandoned = await media.stage(Buffer.from('abandoned'));
    age(abandoned, true);
    // A delete that committed but did not get to remove the file.
    const deleted = await media.stage(Buffer.from('deleted'));
    await media.publish(deleted);
    age(deleted, false);
    // A photo as it should be.
    const kept = await media.stage(Buffer.from('kept'));
    await photoRow(kept);
    await media.publish(kept);
    age(kept, false);
    // Another process's upload under way: too recent to judge.
    const recent = await media.stage(Buffer.from('recent'));

    const result = await sweepMedia(store, media, { olderThan: Date.now() - 60_000, keptBefore: 0 });
    assert.deepEqual(result, { published: 1, removed: 2 });
    assert.deepEqual(await media.read(committed), Buffer.from('committed'));
    assert.deepEqual(await media.read(kept), Buffer.from('kept'));
    assert.deepEqual(files(), [committed, kept, `${recent}.staged`].sort());
    assert.equal(existsSync(join(media.photosDir, abandoned.slice(0, 2), `${abandoned}.staged`)), false);
  });

  it("keeps a video's file as it keeps a photo's", async () => {
    const committed = await media.stage(Buffer.from('a committed video'));
    await store.write([{ op: 'createObject', object: { type: 'video', owner: null, createdTime: 1, updatedTime: 1, data: { video: { key: committed, contentType: 'video/mp4' } } } }]);
    age(committed, true);
    const abandoned = await media.stage(Buffer.from('an abandoned video'));
    age(abandoned, true);
    const result = await sweepMedia(store, media, { olderThan: Date.now() - 60_000, keptBefore: 0 });
    assert.equal(result.published, 1);
    assert.deepEqual(await media.read(committed), Buffer.from('a committed video'));
    assert.equal(existsSync(join(media.photosDir, abandoned.slice(0, 2), `${abandoned}.staged`)), false);
  });

  it("publishes a committed row's staged file however recent, and removes nothing of an adopted folder from before its claim", async () => {
    const committed = await media.stage(Buffer.from('committed just now'));
    await photoRow(committed);
    const before = await media.stage(Buffer.from('another database\'s, from before the claim'));
    await media.publish(before);
    age(before, false);
    const since = await media.stage(Buffer.from('left since the claim'));
    age(since, true);
    const claimedAt = HOUR_AGO - 60_000;
    utimesSync(join(media.photosDir, before.slice(0, 2), before), (claimedAt - 60_000) / 1000, (claimedAt - 60_000) / 1000);

    const result = await sweepMedia(store, media, { olderThan: Date.now() - 60_000, keptBefore: claimedAt });
    assert.deepEqual(result, { published: 1, removed: 1 });
    assert.deepEqual(await media.read(committed), Buffer.from('committed just now'));
    assert.ok(await media.read(before), 'a file from before the claim stays');
    assert.equal(existsSync(join(media.photosDir, since.slice(0, 2), `${since}.staged`)), false);
  });

  it('does nothing when there is no media directory yet', async () => {
    const empty = new MediaStore(join(directory, 'none'));
    assert.deepEqual(await sweepMedia(store, empty, { olderThan: Date.now(), keptBefore: 0 }), { published: 0, removed: 0 });
  });
});
