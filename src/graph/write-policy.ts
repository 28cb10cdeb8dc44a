/**
 * Who changes and deletes what people wrote on the Graph API, whose types declare no write rule
 * of their own: a person edits what they wrote and deletes it, or anything written on their wall
 * or in a conversation under something of theirs; a person's profile is never deleted this way.
 * A page token writes as the page, in public. Comments and the replies to them go with what they
 * answer.
 */
import { GraphError } from '../errors.js';
import type { ObjectId } from '../ids.js';
import type { ReadContext } from '../engine/request/context.js';
import { listedFrom, requirePublisher, threadOf } from '../engine/write/mutations.js';
import type { WritePolicy } from '../schema/behaviours.js';
import type { StoredNode } from '../schema/stored-node.js';
import { writtenByPage } from './page-authors.js';
import { PUBLISH, writtenAsPage } from './posts.js';

export const graphWrites: WritePolicy = {
  update: async (context: ReadContext, node) => {
    const viewer = requirePublisher(context, PUBLISH);
    if (node.owner !== viewer) throw GraphError.permission('You may only edit what you wrote');
  },
  delete: async (context: ReadContext, node) => {
    const viewer = requirePublisher(context, PUBLISH);
    const mayDelete = node.type !== 'user' && (node.owner === viewer || isOnWallOf(node, viewer) || (await ownsThreadOf(context, node, viewer)));
    if (!mayDelete) throw GraphError.permission('You may only delete what you wrote or what was written on your wall');
  },
  deletedWith: async (context: ReadContext, ids, limit) => {
    const comments = await listedFrom(context, ['comments'], ids, limit);
    // Comments nest two levels deep: a reply to a reply is attached to the top-level comment.
    const replies = await listedFrom(context, ['comments'], comments, limit);
    return [...replies, ...comments];
  },
  asAuthor: (context: ReadContext, data) => (context.viewer.kind === 'page' ? writtenAsPage(data) : data),
  writtenAsNode: writtenByPage,
};

/** Whether the node was written on this person's wall (a friend's post to their timeline). */
function isOnWallOf(node: StoredNode, userId: ObjectId): boolean {
  const wall = node.data.to;
  return Array.isArray(wall) && wall.includes(userId);
}

/**
 * Whether a comment hangs under something that is this person's, their own post or one on their
 * wall: the owner of a conversation may remove anyone's comment in it, as on the real service.
 */
async function ownsThreadOf(context: ReadContext, node: StoredNode, userId: ObjectId): Promise<boolean> {
  const threadId = threadOf(context, node);
  if (threadId === node.id) return false;
  const thread = (await context.store.getObjects([threadId])).get(threadId);
  return thread !== undefined && (thread.owner === userId || isOnWallOf(thread, userId));
}
