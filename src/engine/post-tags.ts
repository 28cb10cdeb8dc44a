/**
 * A post written with a `place` and `tags`: the place (a page) goes into the post as the page's
 * id, name and location, and the tagged people (friends of the author, named by their ids under
 * the viewer's app) into its `tags`. Each tagged person then lists the post under `tagged`, and
 * with a place the author and each of them list it among their tagged places, in the write that
 * creates the post.
 */
import { GraphError } from '../errors.js';
import type { ObjectId, Ref, WriteOp } from '../store/store.js';
import type { ReadContext } from './context.js';

/** The tags of one post are bounded so one write stays small. */
const MAX_TAGS = 50;

export interface PostTagging {
  /** Data of the post: its place and tags resolved, or removed when not given. */
  data: Record<string, unknown>;
  /** The associations the write adds to the created post (`post`). */
  links(post: Ref, time: number): WriteOp[];
}

export async function resolveTagging(context: ReadContext, author: ObjectId, data: Record<string, unknown>): Promise<PostTagging> {
  const { place: placeText, tags: tagsText, ...rest } = data;
  const tagTexts = typeof tagsText === 'string' ? tagsText.split(',').map((text) => text.trim()).filter((text) => text !== '') : [];
  if (tagTexts.length > 0 && placeText === undefined) {
    throw GraphError.invalidParameter('The parameter tags can only be given together with a place');
  }
  if (tagTexts.length > MAX_TAGS) throw GraphError.invalidParameter(`At most ${MAX_TAGS} people can be tagged in one post`);
  const placeId = placeText === undefined ? undefined : /^\d{1,16}$/.test(String(placeText)) ? Number(placeText) : Number.NaN;
  const tagged = tagTexts.map((text) => {
    const id = context.viewer.ids.unscope(text);
    if (id === undefined) throw GraphError.invalidParameter(`Invalid tag: ${text.slice(0, 32)}`);
    return id;
  });
  const unique = [...new Set(tagged)];
  const [places, friendships] = await Promise.all([
    placeId === undefined || Number.isNaN(placeId) ? new Map() : context.store.getObjects([placeId]),
    context.store.getExisting('friends', unique.map((id) => [author, id] as const)),
  ]);
  const page = placeId === undefined ? undefined : places.get(placeId);
  if (placeId !== undefined && page?.type !== 'page') throw GraphError.invalidParameter(`Invalid place: ${String(placeText).slice(0, 32)}`);
  const stranger = unique.find((id) => !friendships.has(`${author}:${id}`));
  if (stranger !== undefined) throw GraphError.invalidParameter(`Only friends can be tagged: ${context.viewer.ids.scope(stranger)}`);

  const resolved: Record<string, unknown> = { ...rest };
  if (page) resolved.place = { id: String(page.id), name: page.data.name, ...(page.data.location ? { location: page.data.location } : {}) };
  if (unique.length > 0) resolved.tags = unique;
  return {
    data: resolved,
    links: (post, time) => [
      ...unique.map((id): WriteOp => ({ op: 'addAssoc', type: 'tagged', id1: id, id2: post, time })),
      ...(page ? [author, ...unique].map((id): WriteOp => ({ op: 'addAssoc', type: 'tagged_places', id1: id, id2: post, time })) : []),
    ],
  };
}
