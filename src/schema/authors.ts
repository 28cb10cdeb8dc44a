/**
 * Who wrote an object. A person writes with their own token; a package's write policy may let a
 * node write as itself (the Graph's page, through a page token) and mark what it writes so. Such
 * an object is governed by no person: the rules that follow a person (app use, permissions,
 * app-scoped ids) pass over it. Without a write policy, every object is its owner's.
 */
import type { WritePolicy } from './behaviours.js';
import type { StoredNode } from './stored-node.js';

/** Association from a person to each page they administer, and so may act as with a page token. */
export const PAGE_ADMINS = 'page_admins';

/** Whether a node acting as itself, not a person, wrote the object, by its package's mark. */
export function writtenAsNode(policy: WritePolicy | undefined, object: StoredNode): boolean {
  return policy?.writtenAsNode(object) ?? false;
}

/** The person who wrote the object and whose grants and app use govern it; null for what a node wrote as itself and unowned ones. */
export function personOwnerOf(policy: WritePolicy | undefined, object: StoredNode): number | null {
  return writtenAsNode(policy, object) ? null : object.owner;
}
