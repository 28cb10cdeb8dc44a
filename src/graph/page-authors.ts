/**
 * What a page wrote. A page writes through a page token, and what it writes is owned by the page
 * and marked so in its data: a page is nobody's app user and holds no grants, so the rules that
 * follow a person (app use, permissions, app-scoped ids) pass over its objects.
 */
import type { StoredNode } from '../schema/stored-node.js';

/** Data key set on objects a page wrote. */
export const BY_PAGE = 'by_page';

/** Whether a page, not a person, wrote the object. */
export function writtenByPage(object: Pick<StoredNode, 'data'>): boolean {
  return object.data[BY_PAGE] === true;
}

/** The author's id as the viewer's app shows it: app-scoped for a person, plain for a page. */
export function authorId(object: StoredNode, userIdFor: (internalId: number) => string): string {
  return writtenByPage(object) ? String(object.owner ?? 0) : userIdFor(object.owner ?? 0);
}
