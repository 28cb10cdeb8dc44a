/**
 * Who may POST where on the Graph API, beyond seeing the node: on one's own profile or node, on
 * a friend's wall, in a group one is a member of.
 */
import { GraphError } from '../errors.js';
import type { ObjectId } from '../ids.js';
import type { PostCheck } from '../schema/behaviours.js';
import type { StoredNode } from '../schema/stored-node.js';

/** Only on one's own node: one's profile, or a node one owns (a page one runs, an album). */
export const ownNodeOnly: PostCheck = async (_context, parent, author) => {
  if (!isOwn(parent, author)) throw GraphError.permission('Only the owner may add to this');
};

/** On one's own wall, or a friend's. */
export const friendsWall: PostCheck = async (context, parent, author) => {
  if (isOwn(parent, author)) return;
  if (parent.type === 'user' && (await context.store.getExisting('friends', [[author, parent.id]])).size > 0) return;
  throw GraphError.permission('Posting on this wall requires being friends with its owner');
};

/** In a group one is a member of (its `members` association). */
export const membersOnly: PostCheck = async (context, parent, author) => {
  if ((await context.store.getExisting('members', [[parent.id, author]])).size > 0) return;
  throw GraphError.permission('Only members of this group may post in it');
};

function isOwn(parent: StoredNode, author: ObjectId): boolean {
  return parent.id === author || parent.owner === author;
}
