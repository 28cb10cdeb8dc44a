/**
 * Photos and albums in every dialect Loom speaks, over HTTP: read by id, listed by `me/photos`,
 * `me/albums` and `{album}/photos`, with the default fields the real v2.0 service sent (no
 * `album` on a photo, no `cover_photo` on an album) and the minimal ones from v2.4; and the
 * shapes of `album` and `cover_photo` when asked for.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import type { WriteOp } from '../../src/store/write-ops.js';
import { buildFixture, NOW, type Fixture } from '../helpers/fixture.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400;
const RICH_VERSIONS = ['v2.0', 'v2.1', 'v2.2', 'v2.3'];
const VERSIONS = [...RICH_VERSIONS, 'v2.4'];

/** A photo's default fields up to v2.3, in order (fb_graph2 user/photos.json, a v2.0 capture). */
const PHOTO_DEFAULTS = ['id', 'from', 'name', 'picture', 'source', 'height', 'width', 'images', 'link', 'icon', 'place', 'created_time', 'updated_time', 'tags', 'comments', 'likes'];
/** Nobody is tagged in Loom's photos, and an empty edge is left out, so `tags` never shows. */
const FULL_PHOTO = PHOTO_DEFAULTS.filter((key) => key !== 'tags');
/** An album's default fields up to v2.3, in order (fb_graph2 user/albums.json, a v2.0 capture). */
const ALBUM_DEFAULTS = ['id', 'from', 'name', 'link', 'privacy', 'type', 'created_time', 'updated_time', 'can_upload'];
/** A photo or an album from v2.4, and what `album` (and from v2.4 `cover_photo`) shows when asked for. */
const MINIMAL = ['created_time', 'name', 'id'];

/** Whether `keys` come in the order of `order`, skipping some. */
function inOrderOf(keys: string[], order: string[]): boolean {
  let at = 0;
  for (const key of keys) {
    at = order.indexOf(key, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

describe('photos and albums in the v2.0 to v2.4 dialects', () => {
  let fixture: Fixture;
  let server: TestServer;
  let photo: number;
  let pagePhoto: number;
  let token: string;

  before(async () => {
    fixture = await buildFixture();
    server = await startServer(fixture.store, { clock: Clock.frozenAt(NOW) });
    token = fixture.aliceToken;
    const { alice, bob } = fixture.users;
    const store = fixture.store;
    const created = async (ops: WriteOp[]) => (await store.write(ops)).results as number[];
    const [place, page] = await created([
      { op: 'createObject', object: { type: 'page', owner: null, createdTime: NOW - 400 * DAY, data: { name: 'Harbor Park', category: 'Park', location: { city: 'Harbor City', latitude: 37.8, longitude: -122.4 } } } },
      { op: 'createObject', object: { type: 'page', owner: null, createdTime: NOW - 400 * DAY, data: { name: 'Harbor Light Bakery', category: 'Bakery' } } },
    ]);
    const time = NOW - 10 * DAY;
    // A photo with every default field: a caption, an icon, a place, comments and likes, in Alice's album, whose cover it is.
    [photo = 0] = await created([
      { op: 'createObject', object: { type: 'photo', owner: alice, createdTime: time, updatedTime: time + 60, data: {
        name: 'Sunset over the harbour', width: 960, height: 720, album: fixture.album, place,
        icon: 'https://static.example.com/photo-icon.gif', privacy: { value: 'ALL_FRIENDS' },
      } } },
    ]);
    const comments = await created([1, 2].map((n) => ({
      op: 'createObject' as const,
      object: { type: 'comment', owner: bob, createdTime: time + n, data: { message: `Lovely ${n}`, parent: photo, thread: photo } },
    })));
    // A photo a page posted, whose `from` is the page.
    [pagePhoto = 0] = await created([
      { op: 'createObject', object: { type: 'photo', owner: page!, createdTime: time, data: { name: 'Fresh loaves', width: 640, height: 480, privacy: { value: 'EVERYONE' }, by_page: true } } },
    ]);
    await store.write([
      { op: 'addAssoc', type: 'photos', id1: alice, id2: photo!, time },
      { op: 'addAssoc', type: 'album_photos', id1: fixture.album, id2: photo!, time },
      { op: 'addAssoc', type: 'photos', id1: page!, id2: pagePhoto!, time },
      ...comments.map((comment, n): WriteOp => ({ op: 'addAssoc', type: 'comments', id1: photo!, id2: comment, time: time + n + 1 })),
      ...fixture.likers.slice(0, 3).flatMap((liker, n): WriteOp[] => [
        { op: 'addAssoc', type: 'likes', id1: photo!, id2: liker, time: time + n },
        { op: 'addAssoc', type: 'liked', id1: liker, id2: photo!, time: time + n },
      ]),
      { op: 'updateObject', id: fixture.album, data: { name: 'Holidays', type: 'normal', privacy: 'friends', cover_photo: photo }, updatedTime: time + 60 },
    ]);
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  async function read(path: string, params: Record<string, string> = {}) {
    const reply = await server.get(path, { access_token: token, ...params });
    assert.equal(reply.status, 200, `${path}: ${reply.text.slice(0, 300)}`);
    return reply.body;
  }

  /** A photo item as the version shows it without `fields`; the rich photo exactly. */
  function assertPhoto(version: string, item: any, where: string) {
    const keys = Object.keys(item);
    if (version === 'v2.4') {
      assert.ok(inOrderOf(keys, MINIMAL) && keys.includes('id'), `${where}: ${keys.join(',')}`);
      return;
    }
    assert.ok(inOrderOf(keys, PHOTO_DEFAULTS), `${where}: ${keys.join(',')}`);
    assert.ok(!keys.includes('album'), `${where}: no album among the defaults`);
    if (item.id !== String(photo)) return;
    assert.deepEqual(keys, FULL_PHOTO, where);
    assert.deepEqual(Object.keys(item.from), ['name', 'id'], where);
    assert.deepEqual(Object.keys(item.place), ['name', 'location', 'id'], where);
    assert.equal(item.comments.data.length, 2, where);
    for (const comment of item.comments.data) {
      assert.deepEqual(Object.keys(comment), ['id', 'from', 'message', 'can_remove', 'created_time', 'like_count', 'user_likes'], where);
      assert.deepEqual(Object.keys(comment.from), ['name', 'id'], where);
    }
    assert.equal(item.likes.data.length, 3, where);
    for (const liker of item.likes.data) assert.deepEqual(Object.keys(liker), ['name', 'id'], where);
  }

  it('reads a photo by its id in each version', async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/${photo}`);
      if (version === 'v2.4') assert.deepEqual(Object.keys(body), MINIMAL);
      else assertPhoto(version, body, `${version} photo`);
      assert.equal(body.id, String(photo));
    }
  });

  it('reads an album by its id in each version', async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/${fixture.album}`);
      assert.deepEqual(Object.keys(body), version === 'v2.4' ? MINIMAL : ALBUM_DEFAULTS, version);
      if (version !== 'v2.4') assert.deepEqual(Object.keys(body.from), ['name', 'id'], version);
    }
  });

  it('lists me/photos in each version', async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/me/photos`, { limit: '25' });
      assert.ok(body.data.some((item: any) => item.id === String(photo)), version);
      for (const item of body.data) assertPhoto(version, item, `${version} me/photos`);
    }
  });

  it('lists me/albums in each version', async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/me/albums`);
      assert.equal(body.data.length, 1, version);
      assert.deepEqual(Object.keys(body.data[0]), version === 'v2.4' ? MINIMAL : ALBUM_DEFAULTS, version);
    }
  });

  it("lists an album's photos in each version", async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/${fixture.album}/photos`, { limit: '25' });
      assert.equal(body.data.length, 6, version);
      for (const item of body.data) assertPhoto(version, item, `${version} album/photos`);
    }
  });

  it('shows album as {created_time, name, id} when asked for, and cover_photo as an id before v2.4, a photo from v2.4', async () => {
    for (const version of VERSIONS) {
      const withAlbum = await read(`/${version}/${photo}`, { fields: 'album' });
      assert.deepEqual(Object.keys(withAlbum), ['album', 'id'], version);
      assert.deepEqual(Object.keys(withAlbum.album), MINIMAL, version);
      assert.deepEqual([withAlbum.album.name, withAlbum.album.id], ['Holidays', String(fixture.album)], version);
      const withCover = await read(`/${version}/${fixture.album}`, { fields: 'cover_photo' });
      if (version === 'v2.4') assert.deepEqual(Object.keys(withCover.cover_photo), MINIMAL);
      const coverId = version === 'v2.4' ? withCover.cover_photo.id : withCover.cover_photo;
      assert.equal(coverId, String(photo), version);
      // Both asked for on the list: each answer holds the other's id, never the other's own defaults.
      const both = await read(`/${version}/me/albums`, { fields: 'cover_photo,photos.limit(1){album}' });
      assert.deepEqual(Object.keys(both.data[0].photos.data[0].album), MINIMAL, version);
    }
  });

  it('names a page by its category, name and id before v2.4, by name and id from v2.4', async () => {
    for (const version of VERSIONS) {
      const body = await read(`/${version}/${pagePhoto}`, { fields: 'from' });
      assert.deepEqual(Object.keys(body.from), version === 'v2.4' ? ['name', 'id'] : ['category', 'name', 'id'], version);
      assert.equal(body.from.name, 'Harbor Light Bakery');
    }
  });
});
