/**
 * What POSTs to the writable edges do, shared by the types that carry those edges. The engine
 * runs every one of them through the same create path.
 */
import type { EdgePost } from './definition.js';

/** Longest message the real service accepts on a post or comment. */
export const MESSAGE_LENGTH = 63_206;
const MESSAGE = { name: 'message', maxLength: MESSAGE_LENGTH };
const PRIVACY = { name: 'privacy', maxLength: 1024, json: true };

/** `POST /<user>/feed`: a post by the viewer on this wall (their own, or a friend's). */
export const postToFeed: EdgePost = {
  creates: 'post',
  allowed: 'friends',
  params: [MESSAGE, { name: 'link', maxLength: 2048 }, PRIVACY, { name: 'place', maxLength: 64 }, { name: 'tags', maxLength: 2048 }],
  oneOf: ['message', 'link'],
  derive: (params, { parent, viewer }) => ({
    ...params,
    type: params.link ? 'link' : 'status',
    status_type: parent === viewer ? 'mobile_status_update' : 'wall_post',
    privacy: privacyOf(params.privacy),
    ...(parent === viewer ? {} : { to: [parent] }),
  }),
  links: [
    { assoc: 'posts', from: 'viewer', to: 'created' },
    { assoc: 'feed', from: 'viewer', to: 'created' },
    { assoc: 'feed', from: 'parent', to: 'created' },
  ],
};

/** `POST /<object>/likes`: the viewer likes the object; liking twice keeps one like. */
export const likeObject: EdgePost = {
  links: [
    { assoc: 'likes', from: 'parent', to: 'viewer' },
    { assoc: 'liked', from: 'viewer', to: 'parent' },
  ],
};

/** `POST /<object>/comments`: a comment by the viewer. */
export const commentOnObject: EdgePost = {
  creates: 'comment',
  params: [MESSAGE],
  oneOf: ['message'],
  derive: (params, { parent }) => ({ ...params, parent }),
  links: [
    { assoc: 'comments', from: 'parent', to: 'created' },
    { assoc: 'thread_comments', from: 'thread', to: 'created' },
  ],
};

const PHOTO_PARAMS = [
  { name: 'caption', maxLength: MESSAGE_LENGTH },
  MESSAGE,
  { name: 'url', maxLength: 2048 },
  PRIVACY,
  { name: 'no_story', maxLength: 5 },
];

/** A photo's caption, whichever of the two names the client used for it. */
function photoData(params: Record<string, unknown>): Record<string, unknown> {
  const caption = params.caption ?? params.message;
  return { ...(caption === undefined ? {} : { name: caption }), privacy: privacyOf(params.privacy) };
}

function photoStory(params: Record<string, unknown>): Record<string, unknown> {
  const caption = params.caption ?? params.message;
  return {
    type: 'photo',
    status_type: 'added_photos',
    ...(caption === undefined ? {} : { message: caption }),
    privacy: privacyOf(params.privacy),
  };
}

/** `POST /me/photos`: the viewer uploads a photo, announced on their feed. */
export const uploadPhoto: EdgePost = {
  creates: 'photo',
  allowed: 'self',
  image: true,
  params: PHOTO_PARAMS,
  derive: photoData,
  story: photoStory,
  links: [{ assoc: 'photos', from: 'viewer', to: 'created' }],
};

/** `POST /<album>/photos`: the album's owner adds an uploaded photo to it. */
export const addPhotoToAlbum: EdgePost = {
  ...uploadPhoto,
  derive: (params, { parent }) => ({ ...photoData(params), album: parent }),
  links: [
    { assoc: 'photos', from: 'viewer', to: 'created' },
    { assoc: 'album_photos', from: 'parent', to: 'created' },
  ],
};

/** `POST /me/albums`: a new, empty album of the viewer's. */
export const createAlbum: EdgePost = {
  creates: 'album',
  allowed: 'self',
  params: [{ name: 'name', maxLength: 255 }, MESSAGE, { name: 'description', maxLength: MESSAGE_LENGTH }, PRIVACY],
  oneOf: ['name'],
  derive: (params) => {
    const description = params.description ?? params.message;
    const { value } = privacyOf(params.privacy);
    return {
      type: 'normal',
      name: params.name,
      ...(description === undefined ? {} : { description }),
      privacy: value === 'EVERYONE' ? 'everyone' : value === 'SELF' ? 'self' : 'friends',
    };
  },
  links: [{ assoc: 'albums', from: 'viewer', to: 'created' }],
};

const PRIVACY_DESCRIPTIONS: Record<string, string> = {
  EVERYONE: 'Public',
  ALL_FRIENDS: 'Your friends',
  FRIENDS_OF_FRIENDS: 'Friends of friends',
  SELF: 'Only me',
};

function privacyOf(value: unknown): { value: string; description: string } {
  const requested = typeof value === 'object' && value !== null ? String((value as { value?: unknown }).value ?? '') : '';
  const chosen = requested in PRIVACY_DESCRIPTIONS ? requested : 'ALL_FRIENDS';
  return { value: chosen, description: PRIVACY_DESCRIPTIONS[chosen]! };
}
