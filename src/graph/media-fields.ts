/** The addresses and shapes of a photo's, a video's and a page cover's media, served by Loom itself. */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';
import { rules } from '../schema/versions.js';
import { imageKeyOf, photoSourceUrl, photoThumbnailUrl, VIDEO_FRAME, videoKeyOf, videoSourceUrl, videoThumbnailUrl, type PhotoImage } from '../schema/media.js';

function imageOf(object: StoredNode): PhotoImage {
  return { id: object.id, key: imageKeyOf(object.data), width: object.data.width, height: object.data.height };
}

export function photoSource(object: StoredNode, context: FieldContext): string {
  return photoSourceUrl(context.publicUrl, imageOf(object));
}

export function photoPicture(object: StoredNode, context: FieldContext): string {
  return photoThumbnailUrl(context.publicUrl, imageOf(object));
}

/** Loom keeps one size of each photo; `images` lists that one, with whichever dimensions are known. */
export function photoImages(object: StoredNode, context: FieldContext): Array<Record<string, unknown>> {
  const image: Record<string, unknown> = {};
  if (typeof object.data.height === 'number') image.height = object.data.height;
  if (typeof object.data.width === 'number') image.width = object.data.width;
  image.source = photoSource(object, context);
  return [image];
}

/** The uploaded file's address; a video without uploaded bytes (the demo graph's) a placeholder clip's. */
export function videoSource(object: StoredNode, context: FieldContext): string {
  return videoSourceUrl(context.publicUrl, { id: object.id, key: videoKeyOf(object.data), length: object.data.length });
}

export function videoPicture(object: StoredNode, context: FieldContext): string {
  return videoThumbnailUrl(context.publicUrl, object.id);
}

export function videoEmbedHtml(object: StoredNode, context: FieldContext): string {
  const { width, height } = VIDEO_FRAME;
  return `<iframe src="${context.profileHost}/video/embed?video_id=${object.id}" width="${width}" height="${height}" frameborder="0"></iframe>`;
}

/** Loom keeps each video in one form, its native size. */
export function videoFormats(object: StoredNode, context: FieldContext): Array<Record<string, unknown>> {
  return [{ embed_html: videoEmbedHtml(object, context), filter: 'native', ...VIDEO_FRAME, picture: videoThumbnailUrl(context.publicUrl, object.id) }];
}

/** Loom keeps an upload whole before it answers, so a video is never still processing. */
export function videoStatus(): Record<string, unknown> {
  return { video_status: 'ready' };
}

/** Every video plays in the player its `embed_html` names. */
export function videoEmbeddable(): boolean {
  return true;
}

/** The video's address on the site, relative as the service gives it: under its uploader's profile. */
export function videoPermalink(object: StoredNode, context: FieldContext): string | undefined {
  return object.owner === null ? undefined : `/${context.userIdFor(object.owner)}/videos/${object.id}/`;
}

/** The cover as the real service shows it: the photo's id (from v2.3 twice), its offsets and its address. */
export function pageCover(object: StoredNode, context: FieldContext): Record<string, unknown> | undefined {
  const cover = object.data.cover as { cover_id?: unknown; offset_x?: unknown; offset_y?: unknown; width?: unknown; height?: unknown } | undefined;
  if (typeof cover !== 'object' || cover === null || typeof cover.cover_id !== 'number') return undefined;
  const id = String(cover.cover_id);
  const source = photoSourceUrl(context.publicUrl, { id, width: cover.width, height: cover.height });
  const shown = { cover_id: id, offset_x: cover.offset_x ?? 0, offset_y: cover.offset_y ?? 0, source };
  return rules.has('cover-photo-node-id', context.version) ? { ...shown, id } : shown;
}
