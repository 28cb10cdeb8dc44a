/**
 * Where Loom serves photo images. Photos and the posts that show them point at the same files,
 * so both build their URLs here.
 */

/** Full-size image of a photo object. */
export function photoSourceUrl(publicUrl: string, photoId: number | string): string {
  return `${publicUrl}/media/photos/${photoId}.jpg`;
}

/** Thumbnail of a photo object: the same file asked for at its small size. */
export function photoThumbnailUrl(publicUrl: string, photoId: number | string): string {
  return `${photoSourceUrl(publicUrl, photoId)}?size=small`;
}
