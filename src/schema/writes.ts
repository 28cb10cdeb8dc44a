/**
 * What POSTs to the writable edges do, shared by the types that carry those edges. The engine
 * runs every one of them through the same create path.
 */
import type { EdgePost } from './definition.js';
import { ALWAYS_GRANTED } from './permissions.js';

/** Longest message the real service accepts on a post or comment. */
export const MESSAGE_LENGTH = 63_206;
const MESSAGE = { name: 'message', maxLength: MESSAGE_LENGTH };
const PRIVACY = { name: 'privacy', maxLength: 1024, json: true };
/** The permission to write on a person's behalf. */
export const PUBLISH = 'publish_actions';

/** `POST /<user>/feed`: a post by the viewer on this wall (their own, or a friend's). */
export const postToFeed: EdgePost = {
  scope: PUBLISH,
  creates: 'post',
  allowed: 'friends',
  params: [MESSAGE, { name: 'link', maxLength: 2048 }, PRIVACY, { name: 'place', maxLength: 64 }, { name: 'tags', maxLength: 2048 }],
  oneOf: ['message', 'link'],
  tagging: true,
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
  scope: PUBLISH,
  links: [
    { assoc: 'likes', from: 'parent', to: 'viewer' },
    { assoc: 'liked', from: 'viewer', to: 'parent' },
  ],
};

/** `POST /<object>/comments`: a comment by the viewer, keeping the thread it belongs to. */
export const commentOnObject: EdgePost = {
  scope: PUBLISH,
  creates: 'comment',
  flattens: true,
  params: [MESSAGE],
  oneOf: ['message'],
  derive: (params, { parent, thread }) => ({ ...params, parent, thread }),
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

/** Association from a photo to the post announcing it. */
export const PHOTO_STORIES = 'photo_stories';

/**
 * A photo's caption, whichever of the two names the client used for it, and its privacy: the
 * one given, else `fallback` (an album's), else friends.
 */
function photoData(params: Record<string, unknown>, fallback?: Privacy): Record<string, unknown> {
  const caption = params.caption ?? params.message;
  const privacy = params.privacy === undefined && fallback ? fallback : privacyOf(params.privacy);
  return { ...(caption === undefined ? {} : { name: caption }), privacy };
}

/** A photo's story shows its caption to whoever may see the photo. */
function photoStory(photo: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'photo',
    status_type: 'added_photos',
    ...(photo.name === undefined ? {} : { message: photo.name }),
    privacy: photo.privacy,
  };
}

/** `POST /me/photos`: the viewer uploads a photo, announced on their feed. */
export const uploadPhoto: EdgePost = {
  scope: PUBLISH,
  creates: 'photo',
  allowed: 'self',
  image: true,
  params: PHOTO_PARAMS,
  derive: (params) => photoData(params),
  story: { assoc: PHOTO_STORIES, data: photoStory },
  links: [{ assoc: 'photos', from: 'viewer', to: 'created' }],
};

/** `POST /<album>/photos`: the album's owner adds an uploaded photo to it, shared as the album is unless said otherwise. */
export const addPhotoToAlbum: EdgePost = {
  ...uploadPhoto,
  derive: (params, { parent }, album) => ({ ...photoData(params, privacyOfWord(album.privacy)), album: parent }),
  links: [
    { assoc: 'photos', from: 'viewer', to: 'created' },
    { assoc: 'album_photos', from: 'parent', to: 'created' },
  ],
};

/** `POST /me/albums`: a new, empty album of the viewer's. */
export const createAlbum: EdgePost = {
  scope: PUBLISH,
  creates: 'album',
  allowed: 'self',
  params: [{ name: 'name', maxLength: 255 }, MESSAGE, { name: 'description', maxLength: MESSAGE_LENGTH }, PRIVACY],
  oneOf: ['name'],
  derive: (params) => {
    const description = params.description ?? params.message;
    return {
      type: 'normal',
      name: params.name,
      ...(description === undefined ? {} : { description }),
      privacy: ALBUM_WORDS[privacyOf(params.privacy).value] ?? 'friends',
    };
  },
  links: [{ assoc: 'albums', from: 'viewer', to: 'created' }],
};

/**
 * `POST /<u1>/friends/<u2>` with u1's token asks u2; the same POST the other way round with u2's
 * token confirms, making them friends in both directions. u1's token needs no permission beyond
 * public_profile: client suites befriend test users created without `user_friends`.
 */
export const befriend: EdgePost = {
  scope: ALWAYS_GRANTED,
  item: 'user',
  request: 'friend_requests',
  links: [
    { assoc: 'friends', from: 'parent', to: 'item' },
    { assoc: 'friends', from: 'item', to: 'parent' },
  ],
};

/** Most test users one app may hold. */
const MAX_TEST_USERS = 500;

/** `POST /<app>/accounts/test-users`: the app makes a test user, listed among its test users. */
export const createTestUser: EdgePost = {
  by: 'app',
  creates: 'user',
  cap: {
    assoc: 'test_users',
    max: MAX_TEST_USERS,
    message: `This app already has the most test users allowed (${MAX_TEST_USERS}); delete some first`,
  },
  params: [
    { name: 'name', maxLength: 100 },
    { name: 'locale', maxLength: 5 },
    { name: 'installed', maxLength: 5 },
    { name: 'permissions', maxLength: 2048 },
  ],
  links: [{ assoc: 'test_users', from: 'parent', to: 'created' }],
};

const PRIVACY_DESCRIPTIONS: Record<string, string> = {
  EVERYONE: 'Public',
  ALL_FRIENDS: 'Your friends',
  FRIENDS_OF_FRIENDS: 'Friends of friends',
  SELF: 'Only me',
};

/** How albums word the privacy values they take; the rest read as `friends`. */
const ALBUM_WORDS: Record<string, string> = { EVERYONE: 'everyone', ALL_FRIENDS: 'friends', SELF: 'self' };

type Privacy = { value: string; description: string };

function privacyOf(value: unknown): Privacy {
  const requested = typeof value === 'object' && value !== null ? String((value as { value?: unknown }).value ?? '') : '';
  const chosen = requested in PRIVACY_DESCRIPTIONS ? requested : 'ALL_FRIENDS';
  return { value: chosen, description: PRIVACY_DESCRIPTIONS[chosen]! };
}

/** The privacy object of an album's plain word. */
function privacyOfWord(word: unknown): Privacy {
  const value = Object.keys(ALBUM_WORDS).find((key) => ALBUM_WORDS[key] === word);
  return privacyOf({ value });
}
