/**
 * Uploaded files are named by storage keys that objects' data holds: a photo's (and its story's)
 * `image.key`, a video's `video.key` (as schema/media.ts reads them). Both stores index these two
 * paths, in the graph and in its snapshots, so finding who still points at a file is a lookup.
 */
export const MEDIA_KEY_PATHS = [
  ['image', 'key'],
  ['video', 'key'],
] as const;
