/**
 * What POSTs to the Graph's writable edges do, shared by the types that carry those edges and
 * named by the declaration (`write: {behavior: …}`). The engine runs every one of them through
 * the same create path.
 */
import type { PostCheck } from '../schema/behaviours.js';
import type { EdgePost } from '../schema/definition.js';
import { BY_PAGE } from './page-authors.js';
import { jsonValue, linkProperties } from '../schema/param-decoders.js';
import { friendsWall, membersOnly, ownNodeOnly } from './post-checks.js';

/** Longest message the real service accepts on a post or comment. */
const MESSAGE_LENGTH = 63_206;
const MESSAGE = { name: 'message', maxLength: MESSAGE_LENGTH };
const PRIVACY = { name: 'privacy', maxLength: 1024, decode: jsonValue };
/** The permission to write on a person's behalf. */
export const PUBLISH = 'publish_actions';

/** `POST /<user>/feed`: a post by the viewer on this wall (their own, or a friend's); its `place` and `tags` are read by the code that names it (withTagging). */
export const postToFeed: EdgePost = {
  scope: PUBLISH,
  creates: 'post',
  check: friendsWall,
  params: [
    MESSAGE,
    { name: 'link', maxLength: 2048 },
    PRIVACY,
    { name: 'place', maxLength: 64 },
    // The people the author is with (only with a place), shown as the post's `with_tags`.
    { name: 'tags', maxLength: 2048, people: true },
    // A link post's preview, as the poster words it.
    { name: 'name', maxLength: 1024 },
    { name: 'caption', maxLength: 1024 },
    { name: 'description', maxLength: 4096 },
    { name: 'picture', maxLength: 2048 },
    // Lines of facts the link preview shows under its description, each a label and a linked text.
    { name: 'properties', maxLength: 16_384, decode: linkProperties },
  ],
  oneOf: ['message', 'link'],
  derive: (params, { parent, viewer, app }) => ({
    ...params,
    application: app,
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

/** `POST /<page>/feed`: a post on a page's wall, by the page itself (a page token) or by any visitor. */
export const postToPageFeed: EdgePost = { ...postToFeed, check: undefined };

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
  // A reply also names the comment it answers (`parent`), which a top-level comment does not.
  derive: (params, { parent, thread }) => ({ ...params, parent, thread, ...(parent === thread ? {} : { reply_to: parent }) }),
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
const PHOTO_STORIES = 'photo_stories';

/**
 * A photo's caption, whichever of the two names the client used for it, and its privacy: the
 * one given, else `fallback` (an album's), else friends.
 */
function photoData(params: Record<string, unknown>, fallback?: Privacy): Record<string, unknown> {
  const caption = params.caption ?? params.message;
  const privacy = params.privacy === undefined && fallback ? fallback : privacyOf(params.privacy);
  return { ...(caption === undefined ? {} : { name: caption }), privacy };
}

/**
 * A photo's story, unless the upload says `no_story`: it shows the caption to whoever may see the
 * photo, and the image too, so it keeps the image's key (only the photo, which owns it, removes
 * it). It is made through the uploader's app, which it names, as a post written through it does.
 */
function photoStory(params: Record<string, unknown>, photo: Record<string, unknown>, app: number): Record<string, unknown> | undefined {
  if (params.no_story === 'true' || params.no_story === '1') return undefined;
  const image = photo.image as { key: string } | undefined;
  return {
    type: 'photo',
    // The story's attachment shows the photo at its size.
    ...(typeof photo.width === 'number' && typeof photo.height === 'number' ? { width: photo.width, height: photo.height } : {}),
    status_type: 'added_photos',
    ...(photo.name === undefined ? {} : { message: photo.name }),
    privacy: photo.privacy,
    application: app,
    ...(image ? { image: { key: image.key } } : {}),
  };
}

/** `POST /me/photos`: the viewer uploads a photo, announced on their feed. */
export const uploadPhoto: EdgePost = {
  scope: PUBLISH,
  creates: 'photo',
  check: ownNodeOnly,
  image: true,
  params: PHOTO_PARAMS,
  derive: (params) => photoData(params),
  story: { type: 'post', lists: ['posts', 'feed'], assoc: PHOTO_STORIES, names: 'object_id', answer: 'post_id', data: photoStory },
  links: [{ assoc: 'photos', from: 'viewer', to: 'created' }],
};

/** `POST /<album>/photos`: the album's owner adds an uploaded photo to it, shared as the album is unless said otherwise. */
export const addPhotoToAlbum: EdgePost = {
  ...uploadPhoto,
  derive: (params, { parent }, album) => ({ ...photoData(params, privacyOfWord(album.privacy)), album: parent }),
  links: [...uploadPhoto.links, { assoc: 'album_photos', from: 'parent', to: 'created' }],
};

/** `POST /me/albums`: a new, empty album of the viewer's. */
export const createAlbum: EdgePost = {
  scope: PUBLISH,
  creates: 'album',
  check: ownNodeOnly,
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
  scope: 'public_profile',
  item: 'user',
  request: 'friend_requests',
  links: [
    { assoc: 'friends', from: 'parent', to: 'item' },
    { assoc: 'friends', from: 'item', to: 'parent' },
  ],
};

/** What a page writes: marked as the page's, and public, as everything a page publishes is. */
export function writtenAsPage(data: Record<string, unknown>): Record<string, unknown> {
  return { ...data, [BY_PAGE]: true, ...('privacy' in data ? { privacy: privacyOf({ value: 'EVERYONE' }) } : {}) };
}

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

const VIDEO_PARAMS = [
  { name: 'title', maxLength: 255 },
  { name: 'description', maxLength: MESSAGE_LENGTH },
  { name: 'file_url', maxLength: 2048 },
  PRIVACY,
];

/** `POST /me/videos`: the viewer uploads a video, listed among the videos they uploaded. */
export const uploadVideo: EdgePost = {
  scope: PUBLISH,
  creates: 'video',
  check: ownNodeOnly,
  video: true,
  params: VIDEO_PARAMS,
  derive: (params) => ({
    ...(params.title === undefined ? {} : { title: params.title }),
    ...(params.description === undefined ? {} : { description: params.description }),
    privacy: privacyOf(params.privacy),
  }),
  links: [{ assoc: 'videos_uploaded', from: 'viewer', to: 'created' }],
};

/** `POST /<page or group>/videos`: a video uploaded to a page its owner runs, or to a group by a member. */
export function uploadVideoTo(check: PostCheck): EdgePost {
  return {
    ...uploadVideo,
    check,
    links: [
      { assoc: 'videos_uploaded', from: 'viewer', to: 'created' },
      { assoc: 'videos', from: 'parent', to: 'created' },
    ],
  };
}

/** `POST /<group>/feed`: a member's post in the group, seen as widely as the group itself is. */
export const postToGroup: EdgePost = {
  ...postToFeed,
  check: membersOnly,
  derive: (params, { parent }, group) => ({
    ...params,
    type: params.link ? 'link' : 'status',
    status_type: 'wall_post',
    privacy: privacyOf({ value: group.privacy === 'OPEN' ? 'EVERYONE' : 'ALL_FRIENDS' }),
    to: [parent],
  }),
  links: [{ assoc: 'feed', from: 'parent', to: 'created' }],
};

/**
 * The answers to an event invitation, each with the association listing the event's guests who
 * gave it and the one listing the person's events so answered.
 */
const RSVP_LISTS = {
  attending: { guests: 'attending', events: 'events_attending' },
  maybe: { guests: 'maybe', events: 'events_maybe' },
  declined: { guests: 'declined', events: 'events_declined' },
  noreply: { guests: 'noreply', events: 'events_not_replied' },
} as const;

/** `POST /<event>/attending|maybe|declined`: the viewer answers, leaving whatever answer they gave before. */
export function rsvp(answer: 'attending' | 'maybe' | 'declined'): EdgePost {
  const others = Object.entries(RSVP_LISTS).filter(([name]) => name !== answer).map(([, lists]) => lists);
  return {
    scope: 'rsvp_event',
    links: [
      { assoc: RSVP_LISTS[answer].guests, from: 'parent', to: 'viewer' },
      { assoc: RSVP_LISTS[answer].events, from: 'viewer', to: 'parent' },
      { assoc: 'invited', from: 'parent', to: 'viewer' },
    ],
    unlinks: others.flatMap((lists) => [
      { assoc: lists.guests, from: 'parent' as const, to: 'viewer' as const },
      { assoc: lists.events, from: 'viewer' as const, to: 'parent' as const },
    ]),
  };
}
