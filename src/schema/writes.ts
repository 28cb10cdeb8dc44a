/**
 * What POSTs to the writable edges do, shared by the types that carry those edges. The engine
 * runs every one of them through the same create path.
 */
import type { EdgePost } from './definition.js';

/** Longest message the real service accepts on a post or comment. */
export const MESSAGE_LENGTH = 63_206;
const MESSAGE = { name: 'message', maxLength: MESSAGE_LENGTH };

/** `POST /<user>/feed`: a post by the viewer on this wall (their own, or a friend's). */
export const postToFeed: EdgePost = {
  creates: 'post',
  params: [MESSAGE, { name: 'link', maxLength: 2048 }, { name: 'privacy', maxLength: 1024, json: true }, { name: 'place', maxLength: 64 }, { name: 'tags', maxLength: 2048 }],
  oneOf: ['message', 'link'],
  derive: (params, { parent, viewer }) => ({
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
  derive: (_params, { parent }) => ({ parent }),
  links: [
    { assoc: 'comments', from: 'parent', to: 'created' },
    { assoc: 'thread_comments', from: 'thread', to: 'created' },
  ],
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
