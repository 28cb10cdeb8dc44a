/** The stored fields of a post of each kind the demo graph has. */
import type { ObjectId } from '../ids.js';
import { possessive, type Person } from './people.js';
import {
  LINK_HOSTS,
  LINK_INTROS,
  LINK_SLUGS,
  PHOTO_CAPTIONS,
  POST_CLOSERS,
  POST_MIDDLES,
  POST_OPENERS,
  WALL_MESSAGES,
} from './phrases.js';
import { privacyOf, type Audience } from './privacy.js';
import type { Random } from './random.js';

export type PostKind = 'status' | 'link' | 'photos' | 'profilePicture' | 'wall';

/** The small icon the service showed beside a shared link or photo (a status had none). */
export function iconOf(type: 'link' | 'photo'): string {
  return `https://static.example.com/icons/${type}.gif`;
}

/** Whether a post of this kind shows a photo, which it names once the photos are written. */
export const showsPhoto = (kind: PostKind): boolean => kind === 'photos' || kind === 'profilePicture';

function statusMessage(random: Random): string {
  const middle = random.pick(POST_MIDDLES);
  const body = random.chance(0.7) ? `${random.pick(POST_OPENERS)} ${middle}` : middle[0]?.toUpperCase() + middle.slice(1);
  return body + random.pick(POST_CLOSERS);
}

/** A post announcing photos, its story telling what was added. */
function photoPost(story: string, privacy: ReturnType<typeof privacyOf>): Record<string, unknown> {
  return { story, privacy, type: 'photo', status_type: 'added_photos', icon: iconOf('photo') };
}

/** `wallOwnerId` is the user whose wall a `wall` post is on. */
export function postData(
  random: Random,
  kind: PostKind,
  author: Person,
  audience: Audience,
  wallOwnerId?: ObjectId,
): Record<string, unknown> {
  const privacy = privacyOf(audience);
  switch (kind) {
    case 'status':
      return { message: statusMessage(random), privacy, type: 'status', status_type: 'mobile_status_update' };
    case 'link': {
      const data: Record<string, unknown> = {
        link: `https://${random.pick(LINK_HOSTS)}/${random.pick(LINK_SLUGS)}`,
        privacy,
        type: 'link',
        status_type: 'shared_story',
        icon: iconOf('link'),
      };
      if (random.chance(0.7)) data.message = random.pick(LINK_INTROS);
      return data;
    }
    case 'photos': {
      const count = random.int(2, 9);
      const data = photoPost(`${author.name} added ${count} new photos.`, privacy);
      if (random.chance(0.4)) data.message = random.pick(PHOTO_CAPTIONS);
      return data;
    }
    case 'profilePicture':
      return photoPost(`${author.name} updated ${possessive(author)} profile picture.`, privacy);
    case 'wall':
      if (wallOwnerId === undefined) throw new Error('a wall post needs the wall owner');
      return {
        message: random.pick(WALL_MESSAGES),
        privacy,
        to: [wallOwnerId],
        type: 'status',
        status_type: 'wall_post',
      };
  }
}
