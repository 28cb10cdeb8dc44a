/**
 * A comment on a post, photo or album, or a reply to one. Whoever may see the thread (the post,
 * photo or album the conversation hangs under) may see its comments, and nobody else.
 */
import type { NodeTypeDef } from '../definition.js';
import { commentOnObject, likeObject, MESSAGE_LENGTH } from '../writes.js';
import { messageTagList } from '../post-parts.js';

export const commentType: NodeTypeDef = {
  name: 'comment',
  label: 'Comment',
  idForm: 'plain',
  // Comments written before the thread was stored name only their parent, which leads to it.
  visibility: { follows: ['thread', 'parent'] },
  defaultFields: ['created_time', 'from', 'message'],
  // fb_graph2 post/comments.json; spring-social-facebook comments.json (v2.0–v2.3 captures).
  fullDefaultFields: { names: ['id', 'from', 'message', 'can_remove', 'created_time', 'like_count'] },
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The comment's id." },
    { name: 'from', type: 'profile', source: { kind: 'owner' },
      description: 'The person who wrote the comment.' },
    { name: 'message', type: 'string', writable: { maxLength: MESSAGE_LENGTH },
      description: 'The text of the comment.' },
    { name: 'created_time', type: 'datetime', source: { kind: 'createdTime' },
      description: 'When the comment was written.' },
    { name: 'attachment', type: 'storyattachment',
      description: 'The photo or link attached to the comment.' },
    { name: 'can_comment', type: 'bool', source: { kind: 'computed', compute: (object, context) => context.viewerId !== null && object.data.parent === object.data.thread },
      description: 'Whether the viewer may reply to the comment (replies take no replies of their own).' },
    { name: 'can_hide', type: 'bool', source: { kind: 'computed', compute: () => false },
      description: 'Whether the viewer may hide the comment, which only the owner of a page post may.' },
    { name: 'can_like', type: 'bool', source: { kind: 'computed', compute: (_object, context) => context.viewerId !== null },
      description: 'Whether the viewer may like the comment.' },
    { name: 'is_hidden', type: 'bool', source: { kind: 'computed', compute: (object) => object.data.is_hidden === true },
      description: 'Whether the comment is hidden from everyone but its author and their friends.' },
    { name: 'is_private', type: 'bool', source: { kind: 'computed', compute: () => false },
      description: 'Whether the comment was written privately to a page.' },
    { name: 'message_tags', type: 'list<entitytag>', source: { kind: 'computed', compute: messageTagList },
      description: 'The people and pages the message names.' },
    { name: 'parent', type: 'comment', source: { kind: 'ref', key: 'reply_to' },
      description: 'For a reply, the comment it answers.' },
    { name: 'user_likes', type: 'bool', source: { kind: 'viewerLinked', assoc: 'likes' },
      description: 'Whether the viewer likes the comment.' },
    { name: 'like_count', type: 'unsigned int32', source: { kind: 'count', assoc: 'likes' },
      description: 'How many people like the comment.' },
    { name: 'comment_count', type: 'unsigned int32', source: { kind: 'count', assoc: 'comments' },
      description: 'How many replies the comment has.' },
    // The author may; the owner of the post may too, which a comment alone cannot tell, so it is not promised.
    { name: 'can_remove', type: 'bool', source: { kind: 'computed', compute: (object, context) => object.owner === context.viewerId },
      description: 'Whether the viewer may remove the comment.' },
    { name: 'object', type: 'object', source: { kind: 'ref', key: 'parent' },
      description: 'The post, photo or album this comment was written on, or for a reply the comment it answers.' },
  ],
  edges: [
    { name: 'likes', target: 'user', assoc: 'likes', summary: 'likes', post: likeObject,
      description: 'People who like the comment.' },
    { name: 'comments', target: 'comment', assoc: 'comments', summary: 'comments', post: commentOnObject,
      ordered: true,
      description: 'Replies to the comment.' },
  ],
};
