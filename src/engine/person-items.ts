/**
 * Edge items that show a person or a post in a shape of their own: a relative with the
 * `relationship` the association holds, a friend to tag under a tag token instead of an id, and
 * a place tag (a post's id, time and place).
 */
import { createHmac } from 'node:crypto';
import { parseFields } from '../query/parser.js';
import type { Selection } from '../query/selection.js';
import type { Association, StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';
import type { ItemOf } from './edge-items.js';
import { renderObjectsById, type Json } from './render.js';

const TAGGABLE_DEFAULT = parseFields('name,picture');
const PLACE_TAG_DEFAULT = parseFields('created_time,place');

/** `relationship` belongs to the association, not the person: it is taken out of the person's selection. */
export async function relativeItems(
  context: ReadContext,
  rows: readonly Association[],
  children: Selection[] | undefined,
  objects: ReadonlyMap<number, StoredObject> | undefined,
): Promise<ItemOf> {
  const personFields = children?.filter((child) => child.name !== 'relationship');
  const withRelationship = !children || children.length === 0 || personFields!.length < children.length;
  const people = await renderObjectsById(context, unique(rows.map((row) => row.id2)), personFields?.length ? personFields : undefined, objects);
  return (row) => {
    const person = people.get(row.id2);
    if (!person) return undefined;
    const { id, ...rest } = person;
    const relationship = withRelationship ? row.data?.relationship : undefined;
    return { ...rest, ...(typeof relationship === 'string' ? { relationship } : {}), ...(id === undefined ? {} : { id }) };
  };
}

/**
 * A friend shown for tagging: the id is a tag token, an HMAC of the person and the friend under
 * the app's own key, so it is stable, differs between apps and cannot be made up or turned back
 * into an id.
 */
export async function taggableFriendItems(
  context: ReadContext,
  rows: readonly Association[],
  children: Selection[] | undefined,
  objects: ReadonlyMap<number, StoredObject> | undefined,
): Promise<ItemOf> {
  const selection = children && children.length > 0 ? children : TAGGABLE_DEFAULT;
  // Friends who never used the app are taggable too: the one place they show through it.
  const people = await renderObjectsById(context, unique(rows.map((row) => row.id2)), selection, objects, false);
  const key = context.viewer.app.idKey;
  return (row) => {
    const person = people.get(row.id2);
    if (!person) return undefined;
    const { id: _appScopedId, ...rest } = person;
    return { id: tagToken(key, row.id1, row.id2), ...rest };
  };
}

function tagToken(appKey: string, personId: number, friendId: number): string {
  return `Aa${createHmac('sha256', appKey).update(`taggable:${personId}:${friendId}`).digest('base64url')}`;
}

/** A place tag: the post that put the person at the place, by id, with its time and place. */
export async function placeTagItems(
  context: ReadContext,
  rows: readonly Association[],
  children: Selection[] | undefined,
  objects: ReadonlyMap<number, StoredObject> | undefined,
): Promise<ItemOf> {
  const selection = children && children.length > 0 ? children : PLACE_TAG_DEFAULT;
  const posts = await renderObjectsById(context, unique(rows.map((row) => row.id2)), selection, objects);
  return (row): Json | undefined => {
    const post = posts.get(row.id2);
    if (!post) return undefined;
    const { id, ...rest } = post;
    return { id, ...rest };
  };
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
