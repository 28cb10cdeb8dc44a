/**
 * The structured parts of a post that are built from its own data: the people and pages its
 * message names, its action links and its attachment. Tags keep internal ids
 * (and the name they had when written); the ids are shown as the viewer's app sees them.
 */
import type { StoredNode } from '../schema/stored-node.js';
import { authorId } from './page-authors.js';
import type { FieldContext } from '../schema/definition.js';
import { imageKeyOf, photoSourceUrl, photoThumbnailUrl, PLACEHOLDER } from '../schema/media.js';

/** A stored tag: who is named, and for message tags where in the text. */
interface StoredTag {
  id: number;
  type?: 'user' | 'page';
  name: string;
  offset?: number;
  length?: number;
}

function storedTags(value: unknown): StoredTag[] {
  if (!Array.isArray(value)) return [];
  return (value as unknown[]).filter(
    (tag): tag is StoredTag => typeof tag === 'object' && tag !== null && typeof (tag as StoredTag).id === 'number' && typeof (tag as StoredTag).name === 'string',
  );
}

function shownId(tag: StoredTag, context: FieldContext): string {
  return tag.type === 'page' ? String(tag.id) : context.userIdFor(tag.id);
}

/** `message_tags`: keyed by the offset where each name starts, as the v2.x service sent them. */
export function messageTags(object: StoredNode, context: FieldContext): Record<string, unknown[]> | undefined {
  const tags = storedTags(object.data.message_tags);
  if (tags.length === 0) return undefined;
  const keyed: Record<string, unknown[]> = {};
  for (const tag of tags) {
    const offset = tag.offset ?? 0;
    (keyed[String(offset)] ??= []).push({ id: shownId(tag, context), name: tag.name, type: tag.type ?? 'user', offset, length: tag.length ?? tag.name.length });
  }
  return keyed;
}

/** A comment's `message_tags`: a plain list, in the order the names appear. */
export function messageTagList(object: StoredNode, context: FieldContext): unknown[] | undefined {
  const keyed = messageTags(object, context);
  return keyed && Object.values(keyed).flat();
}

/** Where the post is shown on the profile host. */
function postPermalink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/${authorId(object, context.userIdFor)}/posts/${object.id}`;
}

/** `actions`: what a reader can do with the post, each with its link. */
export function postActions(object: StoredNode, context: FieldContext): Array<{ name: string; link: string }> {
  const link = postPermalink(object, context);
  return [{ name: 'Comment', link }, { name: 'Like', link }];
}

/** A link post's preview image as written (`picture`), or undefined. */
function linkImage(object: StoredNode): { src: string; width?: number; height?: number } | undefined {
  const picture = object.data.picture;
  if (typeof picture !== 'string' || picture === '') return undefined;
  const { picture_width: width, picture_height: height } = object.data;
  return { ...(typeof height === 'number' ? { height } : {}), src: picture, ...(typeof width === 'number' ? { width } : {}) };
}

/** The photo a photo post shows, by id, with the image key the post keeps for it. */
function photoOf(object: StoredNode): { id: string; key?: string } | undefined {
  const id = object.data.object_id;
  return typeof id === 'string' && id !== '' ? { id, key: imageKeyOf(object.data) } : undefined;
}

/** `picture`: a photo post's thumbnail, or a link post's preview image. */
export function postPicture(object: StoredNode, context: FieldContext): string | undefined {
  const photo = photoOf(object);
  if (photo) return photoThumbnailUrl(context.publicUrl, photo);
  return linkImage(object)?.src;
}

/** `full_picture`: a photo post's full-size image, or a link post's preview image. */
export function postFullPicture(object: StoredNode, context: FieldContext): string | undefined {
  const photo = photoOf(object);
  if (photo) return photoSourceUrl(context.publicUrl, photo);
  return linkImage(object)?.src;
}

/**
 * The post's attachment in the shape of the `attachments` edge: the photo a photo post shows,
 * or the page a link post shares; none for a status.
 */
export function postAttachment(object: StoredNode, context: FieldContext): Record<string, unknown> | undefined {
  const photo = photoOf(object);
  if (photo) {
    const { width, height } = object.data;
    const url = `${context.profileHost}/photo.php?fbid=${photo.id}`;
    const src = photoSourceUrl(context.publicUrl, { ...photo, width, height });
    // A photo without uploaded bytes is drawn at its stored size, or the placeholder's.
    const size = typeof width === 'number' && typeof height === 'number' ? { height, width } : photo.key ? {} : PLACEHOLDER;
    return {
      ...(typeof object.data.message === 'string' ? { description: object.data.message } : {}),
      media: { image: { ...('height' in size ? { height: size.height } : {}), src, ...('width' in size ? { width: size.width } : {}) } },
      target: { id: photo.id, url },
      type: 'photo',
      url,
    };
  }
  const link = object.data.link;
  if (typeof link !== 'string' || link === '') return undefined;
  const image = linkImage(object);
  const { name, description } = object.data;
  return {
    ...(typeof description === 'string' ? { description } : {}),
    ...(image ? { media: { image } } : {}),
    target: { url: link },
    ...(typeof name === 'string' ? { title: name } : {}),
    type: 'share',
    url: link,
  };
}
