/**
 * Flags of a node that depend on who asks (may they delete it, like it, reply to it) or on a
 * stored switch read with its default.
 */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';

/** The viewer wrote or uploaded the node. */
export function viewerOwns(object: StoredNode, context: FieldContext): boolean {
  return object.owner === context.viewerId;
}

/** A person is asking, not an app. */
export function viewerIsPerson(_object: StoredNode, context: FieldContext): boolean {
  return context.viewerId !== null;
}

/** Replies take no replies of their own: only a top-level comment (whose parent is its thread) can be answered. */
export function canReply(object: StoredNode, context: FieldContext): boolean {
  return context.viewerId !== null && object.data.parent === object.data.thread;
}

/** What Loom never offers (hiding others' comments, private replies to pages). */
export function never(): boolean {
  return false;
}

/** Hidden only when its author hid it. */
export function isHidden(object: StoredNode): boolean {
  return object.data.is_hidden === true;
}

/** Published unless stored otherwise (scheduled posts, unpublished pages). */
export function isPublished(object: StoredNode): boolean {
  return object.data.is_published !== false;
}
