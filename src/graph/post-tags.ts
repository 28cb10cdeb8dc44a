/**
 * A post written with a `place` and `tags`: the place (a page) goes into the post as the page's
 * id, and the tagged people (friends of the author, named by their ids under the viewer's app)
 * into its `with_tags`. Each tagged person then lists the post under `tagged`, and
 * with a place the author and each of them list it among their tagged places, in the write that
 * creates the post.
 */
import { GraphError } from '../errors.js';
import type { ObjectId } from '../ids.js';
import type { ResolvePost } from '../schema/behaviours.js';
import type { EdgePost } from '../schema/definition.js';

/**
 * The post's data with its place resolved and its people kept as `with_tags` (or removed when
 * not given), and the associations from the people to it. `data.tags` holds the tagged people as
 * internal ids already (a `people` parameter).
 */
const resolveTagging: ResolvePost = async (context, author, data) => {
  const { place: placeText, tags, ...rest } = data;
  const unique = Array.isArray(tags) ? (tags as ObjectId[]) : [];
  if (unique.length > 0 && placeText === undefined) {
    throw GraphError.invalidParameter('The parameter tags can only be given together with a place');
  }
  const placeId = placeText === undefined ? undefined : /^\d{1,16}$/.test(String(placeText)) ? Number(placeText) : Number.NaN;
  const [places, friendships] = await Promise.all([
    placeId === undefined || Number.isNaN(placeId) ? new Map<ObjectId, never>() : context.store.getObjects([placeId]),
    context.store.getExisting('friends', unique.map((id) => [author, id] as const)),
  ]);
  const page = placeId === undefined ? undefined : places.get(placeId);
  if (placeId !== undefined && page?.type !== 'page') throw GraphError.invalidParameter(`Invalid place: ${String(placeText).slice(0, 32)}`);
  const stranger = unique.find((id) => !friendships.has(`${author}:${id}`));
  if (stranger !== undefined) throw GraphError.invalidParameter(`Only friends can be tagged: ${context.viewer.ids.scope(stranger)}`);

  const resolved: Record<string, unknown> = { ...rest };
  if (page) resolved.place = page.id;
  if (unique.length > 0) resolved.with_tags = unique;
  return {
    data: resolved,
    linksToCreated: [
      ...unique.map((id) => ({ assoc: 'tagged', from: id })),
      ...(page ? [author, ...unique].map((id) => ({ assoc: 'tagged_places', from: id })) : []),
    ],
  };
};

/** A POST that creates a post and may name a `place` and `tags`. */
export function withTagging(post: EdgePost): EdgePost {
  return { ...post, resolve: resolveTagging };
}
