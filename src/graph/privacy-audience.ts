/**
 * Whom a post, photo, video or album shows to by its privacy setting. What a page publishes is
 * public whatever it says: a page has no friends to share with.
 */
import type { AudienceOf } from '../schema/behaviours.js';
import { writtenByPage } from './page-authors.js';

/** `data.privacy.value`: EVERYONE (anyone), SELF (the owner), ALL_FRIENDS or unset (the owner and friends). */
export const privacySetting: AudienceOf = (object) => {
  if (writtenByPage(object)) return 'everyone';
  const privacy = object.data.privacy as { value?: string } | undefined;
  switch (privacy?.value) {
    case 'EVERYONE':
      return 'everyone';
    case 'SELF':
      return 'owner';
    default:
      return 'circle';
  }
};

/** `data.privacy` as the plain word albums show: `everyone` (anyone), `self` (the owner), any other (`friends`) the owner and friends. */
export const privacyWord: AudienceOf = (object) => {
  if (writtenByPage(object)) return 'everyone';
  switch (object.data.privacy) {
    case 'everyone':
      return 'everyone';
    case 'self':
      return 'owner';
    default:
      return 'circle';
  }
};
