/**
 * The file a POST carries, as a part of its multipart body or fetched from the address it names:
 * bounded, checked to be what it claims by its own bytes, and staged durably before the row that
 * will point at it is written.
 */
import { GraphError } from '../../errors.js';
import { fetchUpload, tooLarge, VIDEO_UPLOAD } from '../../media/fetch-image.js';
import { inspectImage, type ImageInfo } from '../../media/image-check.js';
import { inspectVideo, type VideoInfo } from '../../media/video-check.js';
import type { ReadContext } from '../request/context.js';

export interface ReceivedImage extends ImageInfo {
  key: string;
}

/** The image of an upload, from the file part or the `url` parameter, checked and durably stored. */
export async function receiveImage(context: ReadContext, upload: Buffer | undefined, url: unknown): Promise<ReceivedImage> {
  const { store, maxBytes } = context.media;
  let bytes = upload;
  if (bytes === undefined && typeof url === 'string') bytes = await fetchUpload(url, context.media);
  if (bytes === undefined) throw new GraphError(324, '(#324) Requires upload file: send the image as a file part or give its url');
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  const info = inspectImage(bytes);
  return { ...info, key: await store.stage(bytes) };
}

export interface ReceivedVideo extends VideoInfo {
  key: string;
}

/** The video of an upload, from the file part or the `file_url` parameter, checked and durably stored. */
export async function receiveVideo(context: ReadContext, upload: Buffer | undefined, url: unknown): Promise<ReceivedVideo> {
  const { store, maxVideoBytes } = context.media;
  let bytes = upload;
  if (bytes === undefined && typeof url === 'string') bytes = await fetchUpload(url, { ...context.media, maxBytes: maxVideoBytes }, VIDEO_UPLOAD);
  if (bytes === undefined) throw GraphError.invalidParameter('Requires upload file: send the video as a file part or give its file_url');
  if (bytes.length > maxVideoBytes) throw tooLarge(maxVideoBytes);
  const info = inspectVideo(bytes);
  return { ...info, key: await store.stage(bytes) };
}
