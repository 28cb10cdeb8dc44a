/** A video someone uploaded; its file is served by Loom itself, its thumbnail drawn. */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import { commentOnObject, likeObject, MESSAGE_LENGTH } from '../writes.js';
import type { StoredObject } from '../../store/store.js';
import { VIDEO_FRAME, videoKeyOf, videoSourceUrl, videoThumbnailUrl } from '../media.js';

/** The uploaded file's address; a video without uploaded bytes (the demo graph's) has none. */
function source(object: StoredObject, context: FieldContext): string | undefined {
  const key = videoKeyOf(object.data);
  return key === undefined ? undefined : videoSourceUrl(context.publicUrl, key);
}

function embedHtml(object: StoredObject, context: FieldContext): string {
  const { width, height } = VIDEO_FRAME;
  return `<iframe src="${context.profileHost}/video/embed?video_id=${object.id}" width="${width}" height="${height}" frameborder="0"></iframe>`;
}

/** Loom keeps each video in one form, its native size. */
function formats(object: StoredObject, context: FieldContext): Array<Record<string, unknown>> {
  return [{ embed_html: embedHtml(object, context), filter: 'native', ...VIDEO_FRAME, picture: videoThumbnailUrl(context.publicUrl, object.id) }];
}

/** The video's address on the site, relative as the service gives it: under its uploader's profile. */
function permalink(object: StoredObject, context: FieldContext): string | undefined {
  return object.owner === null ? undefined : `/${context.userIdFor(object.owner)}/videos/${object.id}/`;
}

export const videoType: NodeTypeDef = {
  name: 'video',
  label: 'Video',
  idForm: 'plain',
  visibility: 'privacy',
  scope: 'user_videos',
  ownsMedia: true,
  defaultFields: ['created_time', 'description'],
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The video's id." },
    { name: 'title', type: 'string', writable: { maxLength: 255 },
      description: 'The title the uploader gave the video.' },
    { name: 'description', type: 'string', writable: { maxLength: MESSAGE_LENGTH },
      description: 'What the video shows, in its uploader\'s words.' },
    { name: 'source', type: 'string', source: { kind: 'computed', compute: source },
      description: 'Address of the video file.' },
    { name: 'picture', type: 'string',
      source: { kind: 'computed', compute: (object, context) => videoThumbnailUrl(context.publicUrl, object.id) },
      description: 'Address of a still image of the video.' },
    { name: 'length', type: 'float',
      description: 'Duration of the video in seconds, as its file records it.' },
    { name: 'format', type: 'list<videoformat>', source: { kind: 'computed', compute: formats },
      description: 'The forms the video can be shown in, each with its player and size.' },
    { name: 'embed_html', type: 'string', source: { kind: 'computed', compute: embedHtml },
      description: 'HTML that plays the video inside another web page.' },
    { name: 'permalink_url', type: 'string', source: { kind: 'computed', compute: permalink },
      description: 'The address of the video on the site, relative to its host.' },
    { name: 'from', type: 'profile', source: { kind: 'owner' },
      description: 'The person or page that uploaded the video.' },
    { name: 'created_time', type: 'datetime', source: { kind: 'createdTime' },
      description: 'When the video was uploaded.' },
    { name: 'updated_time', type: 'datetime', source: { kind: 'updatedTime' },
      description: 'When the video or its title last changed.' },
  ],
  edges: [
    { name: 'likes', target: 'user', assoc: 'likes', summary: 'likes', post: likeObject,
      description: 'People who like the video.' },
    { name: 'comments', target: 'comment', assoc: 'comments', summary: 'comments', post: commentOnObject,
      ordered: true, streamAssoc: 'thread_comments',
      description: 'Comments written on the video.' },
    { name: 'thumbnails', target: 'photo', special: 'thumbnails',
      description: 'Still images of the video, the preferred one marked.' },
  ],
};
