/**
 * Albums and their photos, then each album's cover and the photos' likes and comments. A photo
 * names its album and an album names its first photo, so albums are written first, photos next,
 * and the covers last, each step once the ids it needs exist.
 */
import type { ObjectId } from '../ids.js';
import { ALBUM_DESCRIPTIONS, ALBUM_NAMES, PHOTO_CAPTIONS, PHOTO_SIZES } from './phrases.js';
import { iconOf } from './post-content.js';
import type { Person } from './people.js';
import { privacyOf, type Audience } from './privacy.js';
import type { Random } from './random.js';
import { chooseLikers, countReactions, queueComments, queueLikes } from './reactions.js';
import type { SeedContext } from './seed-context.js';
import { DAY, YEAR } from './durations.js';

interface AlbumPlan {
  id: ObjectId;
  owner: number;
  data: Record<string, unknown>;
  createdTime: number;
  audience: Audience;
  photoTimes: number[];
  photoIds: ObjectId[];
}

/** A photo written: its id, its owner's index, when it was added and who may see it. */
export interface PhotoRecord {
  id: ObjectId;
  owner: number;
  time: number;
  audience: Audience;
}

export type AlbumCounts = Record<'albums' | 'photos' | 'comments' | 'likes', number>;

/** Shares of the phase's progress units taken by each step. */
const STEP_SHARES = { albums: 0.1, photos: 0.5, covers: 0.05, reactions: 0.35 };

function planAlbums(random: Random, owner: number, person: Person, now: number): AlbumPlan[] {
  const count = owner === 0 ? 3 : random.int(1, 4);
  const names = random.sample(ALBUM_NAMES, count - 1);
  const plans: AlbumPlan[] = [];
  for (let i = 0; i < count; i++) {
    const isProfile = i === 0;
    const audience: Audience = isProfile || random.chance(0.4) ? 'EVERYONE' : 'ALL_FRIENDS';
    const createdTime = Math.max(person.joinedTime + DAY, now - random.int(2 * DAY, 2 * YEAR));
    const data: Record<string, unknown> = {
      name: isProfile ? 'Profile Pictures' : names[i - 1],
      type: isProfile ? 'profile' : 'normal',
      privacy: audience === 'EVERYONE' ? 'everyone' : 'friends',
    };
    if (!isProfile && random.chance(0.5)) data.description = random.pick(ALBUM_DESCRIPTIONS);
    const photoTimes: number[] = [];
    const photoCount = random.skewed(3, 20, 2);
    for (let p = 0; p < photoCount; p++) photoTimes.push(Math.min(now - 60, createdTime + random.int(0, 20 * DAY)));
    photoTimes.sort((a, b) => a - b);
    plans.push({ id: 0, owner, data, createdTime, audience, photoTimes, photoIds: [] });
  }
  return plans;
}

/**
 * Writes every person's albums and photos. Returns each person's photo ids (for profile covers)
 * and what was written.
 */
export async function writeAlbums(
  random: Random,
  context: SeedContext,
  unitsPerPerson: number,
): Promise<{ photosByPerson: ObjectId[][]; photos: PhotoRecord[]; counts: AlbumCounts }> {
  const { buffer, now, people, userIds } = context;
  const counts: AlbumCounts = { albums: 0, photos: 0, comments: 0, likes: 0 };
  const albums: AlbumPlan[] = [];
  for (let owner = 0; owner < people.length; owner++) {
    for (const plan of planAlbums(random, owner, people[owner] as Person, now)) {
      const album = buffer.create(
        { type: 'album', owner: userIds[owner] as ObjectId, createdTime: plan.createdTime, updatedTime: plan.createdTime, data: plan.data },
        (id) => (plan.id = id),
      );
      buffer.link('albums', userIds[owner] as ObjectId, album, plan.createdTime);
      albums.push(plan);
      counts.albums++;
      await buffer.endUnit();
    }
    context.progress.advance(unitsPerPerson * STEP_SHARES.albums);
  }
  await buffer.flush();

  const photos: PhotoRecord[] = [];
  const photosByPerson: ObjectId[][] = people.map(() => []);
  const photoUnits = (unitsPerPerson * people.length * STEP_SHARES.photos) / Math.max(1, albums.length);
  for (const plan of albums) {
    const ownerId = userIds[plan.owner] as ObjectId;
    for (const time of plan.photoTimes) {
      const [width, height] = random.pick(PHOTO_SIZES);
      const data: Record<string, unknown> = { width, height, album: plan.id, privacy: privacyOf(plan.audience), icon: iconOf('photo') };
      if (random.chance(0.4)) data.name = random.pick(PHOTO_CAPTIONS);
      const record: PhotoRecord = { id: 0, owner: plan.owner, time, audience: plan.audience };
      const photo = buffer.create({ type: 'photo', owner: ownerId, createdTime: time, updatedTime: time, data }, (id) => {
        record.id = id;
        plan.photoIds.push(id);
        (photosByPerson[plan.owner] as ObjectId[]).push(id);
      });
      buffer.link('photos', ownerId, photo, time);
      buffer.link('album_photos', plan.id, photo, time);
      photos.push(record);
      counts.photos++;
      await buffer.endUnit();
    }
    context.progress.advance(photoUnits);
  }
  await buffer.flush();

  for (const plan of albums) {
    const lastPhotoTime = plan.photoTimes[plan.photoTimes.length - 1] ?? plan.createdTime;
    buffer.update(plan.id, { ...plan.data, cover_photo: plan.photoIds[0] }, lastPhotoTime);
    await buffer.endUnit();
  }
  context.progress.advance(unitsPerPerson * people.length * STEP_SHARES.covers);
  await buffer.flush();

  const reactionUnits = (unitsPerPerson * people.length * STEP_SHARES.reactions) / Math.max(1, photos.length);
  for (const photo of photos) {
    const likeCount = random.chance(0.7) ? 0 : random.skewed(1, 12, 3);
    const likers = chooseLikers(random, context, photo.owner, likeCount, photo.audience === 'EVERYONE');
    queueLikes(random, context, photo.id, photo.time, likers);
    counts.likes += likers.length;
    const friends = context.friends[photo.owner] ?? [];
    const commentCount = random.chance(0.85) ? 0 : random.int(1, 4);
    countReactions(counts, queueComments(random, context, photo.id, photo.time, commentCount, friends, friends));
    context.progress.advance(reactionUnits);
    await buffer.endUnit();
  }
  await buffer.flush();
  return { photosByPerson, photos, counts };
}
