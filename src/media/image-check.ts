import { imageSize } from 'image-size';
import { GraphError } from '../errors.js';

/** The image formats Loom keeps, by the type `image-size` detects, with the content type they are served as. */
const ACCEPTED: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

export interface ImageInfo {
  contentType: string;
  width: number;
  height: number;
}

/**
 * Reads the format and size from the bytes themselves: a file name or a declared content type
 * says nothing about what was actually sent.
 */
export function inspectImage(bytes: Buffer): ImageInfo {
  let detected: { type?: string; width?: number; height?: number };
  try {
    detected = imageSize(bytes);
  } catch {
    throw invalidImage();
  }
  const contentType = detected.type === undefined ? undefined : ACCEPTED[detected.type];
  if (!contentType || !detected.width || !detected.height) throw invalidImage();
  return { contentType, width: detected.width, height: detected.height };
}

function invalidImage(): GraphError {
  return new GraphError(324, '(#324) Missing or invalid image file: send a JPEG, PNG, GIF or WebP image');
}
