/**
 * Edge items that show a person or a post in a shape of their own: a pending friend request, a
 * relative with the `relationship` the association holds, a friend to tag under a tag token
 * instead of an id, and a place tag (a post's id, time and place).
 */
import { createHmac } from 'node:crypto';
import { graphTime } from '../clock/graph-time.js';
import { renderObjectsById } from '../engine/read/render.js';
import { targetItems } from '../engine/read/target-items.js';
import { parseFields } from '../query/parser.js';
import type { Selection } from '../query/selection.js';
import type { EdgeItems } from '../schema/behaviours.js';

const TAGGABLE_DEFAULT = parseFields('name,picture');
const PLACE_TAG_DEFAULT = parseFields('created_time,place');

/**
 * A pending request is held from its recipient (id1) to its sender (id2). It reaches its
 * recipient whichever apps its sender uses.
 */
export const friendRequestItems: EdgeItems = {
  showsNodes: false,
  render: async (context, rows) => {
    const people = await renderObjectsById(context, [...new Set(rows.flatMap((row) => [row.id1, row.id2]))], undefined);
    return (row) => {
      const from = people.get(row.id2);
      const to = people.get(row.id1);
      return from && to ? { from, to, created_time: graphTime(row.time) } : undefined;
    };
  },
};

/** `relationship` belongs to the association, not the person: it is taken out of the person's selection. */
export const relativeItems: EdgeItems = {
  showsNodes: true,
  render: (context, rows, children, visible) => {
    const personFields = children?.filter((child) => child.name !== 'relationship');
    const withRelationship = !children || children.length === 0 || personFields!.length < children.length;
    return targetItems(context, rows, personFields?.length ? personFields : undefined, visible, ({ id, ...rest }, row) => {
      const relationship = withRelationship ? row.data?.relationship : undefined;
      return { ...rest, ...(typeof relationship === 'string' ? { relationship } : {}), ...(id === undefined ? {} : { id }) };
    });
  },
};

/**
 * A friend shown for tagging: the id is a tag token, an HMAC of the person and the friend under
 * the app's own key, so it is stable, differs between apps and cannot be made up or turned back
 * into an id.
 */
export const taggableFriendItems: EdgeItems = {
  showsNodes: true,
  render: (context, rows, children, visible) => {
    const key = context.viewer.app.idKey;
    return targetItems(context, rows, orDefault(children, TAGGABLE_DEFAULT), visible, ({ id: _appScopedId, ...rest }, row) => ({ id: tagToken(key, row.id1, row.id2), ...rest }));
  },
};

function tagToken(appKey: string, personId: number, friendId: number): string {
  return `Aa${createHmac('sha256', appKey).update(`taggable:${personId}:${friendId}`).digest('base64url')}`;
}

/** A place tag: the post that put the person at the place, by id, with its time and place. */
export const placeTagItems: EdgeItems = {
  showsNodes: true,
  render: (context, rows, children, visible) => targetItems(context, rows, orDefault(children, PLACE_TAG_DEFAULT), visible, ({ id, ...rest }) => ({ id, ...rest })),
};

/** The fields asked for, or the edge's own default when the request names none. */
function orDefault(children: Selection[] | undefined, fallback: Selection[]): Selection[] {
  return children && children.length > 0 ? children : fallback;
}
