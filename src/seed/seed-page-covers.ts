/**
 * Cover photos of the pages people like: each such page gets a "Cover Photos" album holding one
 * photo of its own, which its `cover` names, as the service's pages had (facebook4j
 * user/users.json, a page read without fields, with its cover). Written once every other object of
 * the graph is, from a stream of their own, so that the ids and data of the rest stay as they were.
 */
import type { ObjectId } from '../ids.js';
import { BY_PAGE } from '../graph/page-authors.js';
import { iconOf } from './post-content.js';
import { privacyOf } from './privacy.js';
import type { Random } from './random.js';
import type { SeedContext } from './seed-context.js';
import { DAY } from './durations.js';

/** The size of a page cover, as the service cropped them. */
const COVER_PHOTO = { width: 851, height: 315 };

interface CoverAlbum {
  id: ObjectId;
  page: ObjectId;
  time: number;
}

/** Writes a cover album, photo and `cover` for each page; returns how many. */
export async function writePageCovers(random: Random, context: SeedContext, pages: readonly ObjectId[]): Promise<number> {
  const { buffer, now } = context;
  const albums: CoverAlbum[] = [];
  for (const page of pages) {
    const time = now - random.int(30, 300) * DAY;
    const data = { name: 'Cover Photos', type: 'cover', privacy: 'everyone', [BY_PAGE]: true };
    const album = buffer.create({ type: 'album', owner: page, createdTime: time, updatedTime: time, data }, (id) => albums.push({ id, page, time }));
    buffer.link('albums', page, album, time);
    await buffer.endUnit();
  }
  await buffer.flush();
  const covers: Array<{ album: CoverAlbum; photo: ObjectId }> = [];
  for (const album of albums) {
    const data = { ...COVER_PHOTO, privacy: privacyOf('EVERYONE'), icon: iconOf('photo'), album: album.id, [BY_PAGE]: true };
    const photo = buffer.create({ type: 'photo', owner: album.page, createdTime: album.time, updatedTime: album.time, data }, (id) => covers.push({ album, photo: id }));
    buffer.link('photos', album.page, photo, album.time);
    buffer.link('album_photos', album.id, photo, album.time);
    await buffer.endUnit();
  }
  await buffer.flush();
  for (const { album, photo } of covers) {
    // Only the cover changes (a store merges it into the page), as of the photo's own time.
    buffer.update(album.page, { cover: { cover_id: photo, offset_x: 0, offset_y: random.int(0, 60), ...COVER_PHOTO } }, album.time);
    await buffer.endUnit();
  }
  await buffer.flush();
  return covers.length;
}
