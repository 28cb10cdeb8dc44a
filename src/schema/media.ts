/**
 * Where Loom serves images. Photos and the posts that show them point at the same files, so both
 * build their addresses here. An uploaded image is served under its random storage key (like a
 * CDN address: whoever has the address may fetch it, nobody can guess it); a photo without
 * uploaded bytes, such as the demo graph's, is drawn as a placeholder of its size, and a video
 * without them is a placeholder clip of its length.
 */

export interface PhotoImage {
  id: number | string;
  /** Storage key of the uploaded bytes; absent for photos without any. */
  key?: string;
  /** Size of the placeholder drawn for a photo without bytes. */
  width?: unknown;
  height?: unknown;
}

/** The size a placeholder is drawn at when the photo's own is unknown. */
export const PLACEHOLDER = { width: 720, height: 540 };

/** Full-size image of a photo. */
export function photoSourceUrl(publicUrl: string, photo: PhotoImage): string {
  if (photo.key) return `${publicUrl}/media/photos/${photo.key}`;
  // Everything the drawing needs is in the address, so serving it reads nothing and tells nothing.
  const width = typeof photo.width === 'number' ? photo.width : PLACEHOLDER.width;
  const height = typeof photo.height === 'number' ? photo.height : PLACEHOLDER.height;
  return `${publicUrl}/media/placeholders/${photo.id}-${width}x${height}.svg`;
}

/** Thumbnail of a photo: the same image asked for at its small size. */
export function photoThumbnailUrl(publicUrl: string, photo: PhotoImage): string {
  return `${photoSourceUrl(publicUrl, photo)}?size=small`;
}

/** The picture of someone (or a page) without a picture of their own. */
export function silhouetteUrl(publicUrl: string): string {
  return `${publicUrl}/media/silhouette.svg`;
}

/** The storage key a photo's data keeps for its uploaded image. */
export function imageKeyOf(data: Record<string, unknown>): string | undefined {
  const image = data.image;
  if (typeof image !== 'object' || image === null) return undefined;
  const key = (image as { key?: unknown }).key;
  return typeof key === 'string' ? key : undefined;
}

/** The storage key a video's data keeps for its uploaded file. */
export function videoKeyOf(data: Record<string, unknown>): string | undefined {
  const video = data.video;
  if (typeof video !== 'object' || video === null) return undefined;
  const key = (video as { key?: unknown }).key;
  return typeof key === 'string' ? key : undefined;
}

/** The stored file an object points at, image or video: what the sweep keeps and a delete removes. */
export function mediaKeyOf(data: Record<string, unknown>): string | undefined {
  return imageKeyOf(data) ?? videoKeyOf(data);
}

export interface VideoFile {
  id: number | string;
  /** Storage key of the uploaded file; absent for videos without one. */
  key?: string;
  /** Seconds the placeholder of a video without a file records. */
  length?: unknown;
}

/**
 * Address of a video's file: the uploaded one, or for a video without bytes (the demo graph's) a
 * placeholder clip whose address holds its duration in milliseconds, as a photo's holds its size.
 */
export function videoSourceUrl(publicUrl: string, video: VideoFile): string {
  if (video.key) return `${publicUrl}/media/videos/${video.key}`;
  const milliseconds = typeof video.length === 'number' && video.length > 0 ? Math.round(video.length * 1000) : 0;
  return `${publicUrl}/media/placeholders/${video.id}-${milliseconds}.mp4`;
}

/** The frame a video is shown in: its thumbnail's size and its player's. */
export const VIDEO_FRAME = { width: 720, height: 405 };

/** A video's thumbnail: a placeholder drawn at its frame size, since Loom decodes no frames. */
export function videoThumbnailUrl(publicUrl: string, videoId: number): string {
  return photoSourceUrl(publicUrl, { id: videoId, ...VIDEO_FRAME });
}
