/** A photo someone uploaded; its image files are served by Loom itself. */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import { commentOnObject, likeObject, MESSAGE_LENGTH, PHOTO_STORIES } from '../writes.js';
import type { StoredObject } from '../../store/store.js';
import { messageTags } from '../post-parts.js';
import { imageKeyOf, photoSourceUrl, photoThumbnailUrl, type PhotoImage } from '../media.js';
import { PLACE_FIELDS } from './page.js';

function imageOf(object: StoredObject): PhotoImage {
  return { id: object.id, key: imageKeyOf(object.data), width: object.data.width, height: object.data.height };
}

function source(object: StoredObject, context: FieldContext): string {
  return photoSourceUrl(context.publicUrl, imageOf(object));
}

/** Loom keeps one size of each photo; `images` lists that one, with whichever dimensions are known. */
function images(object: StoredObject, context: FieldContext): Array<Record<string, unknown>> {
  const image: Record<string, unknown> = {};
  if (typeof object.data.height === 'number') image.height = object.data.height;
  if (typeof object.data.width === 'number') image.width = object.data.width;
  image.source = source(object, context);
  return [image];
}

export const photoType: NodeTypeDef = {
  name: 'photo',
  label: 'Photo',
  idForm: 'plain',
  visibility: 'privacy',
  scope: 'user_photos',
  ownsMedia: true,
  deletesWith: [PHOTO_STORIES],
  defaultFields: ['created_time', 'name'],
  // fb_graph2 user/photos.json (v2.0 capture).
  fullDefaultFields: {
    names: ['id', 'from', 'name', 'picture', 'source', 'height', 'width', 'images', 'link', 'created_time', 'updated_time', 'album', 'likes', 'comments'],
  },
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The photo's id." },
    { name: 'backdated_time', type: 'datetime',
      description: 'When the photo was taken, where its owner dated it back.' },
    { name: 'can_delete', type: 'bool', source: { kind: 'computed', compute: (object, context) => object.owner === context.viewerId },
      description: 'Whether the viewer may delete the photo.' },
    { name: 'can_tag', type: 'bool', source: { kind: 'computed', compute: (_object, context) => context.viewerId !== null },
      description: 'Whether the viewer may tag people in the photo.' },
    { name: 'from', type: 'profile', source: { kind: 'owner' },
      description: 'The person or page that uploaded the photo.' },
    { name: 'icon', type: 'string',
      description: 'Address of a small icon shown beside the photo in news feeds.' },
    { name: 'name', type: 'string', writable: { maxLength: MESSAGE_LENGTH },
      description: 'The caption written under the photo.' },
    { name: 'album', type: 'album', source: { kind: 'ref' },
      description: 'The album the photo belongs to.' },
    { name: 'width', type: 'unsigned int32',
      description: 'Width of the photo in pixels.' },
    { name: 'height', type: 'unsigned int32',
      description: 'Height of the photo in pixels.' },
    { name: 'picture', type: 'string',
      source: { kind: 'computed', compute: (object, context) => photoThumbnailUrl(context.publicUrl, imageOf(object)) },
      description: 'Address of a small version of the photo.' },
    { name: 'source', type: 'string', source: { kind: 'computed', compute: source },
      description: 'Address of the full-size photo.' },
    { name: 'images', type: 'list<platformimagesource>', source: { kind: 'computed', compute: images },
      description: 'The sizes the photo is available in, each with its address.' },
    { name: 'link', type: 'string',
      source: { kind: 'computed', compute: (object, context) => `${context.profileHost}/photo.php?fbid=${object.id}` },
      description: 'Address of the page that shows the photo.' },
    { name: 'name_tags', type: 'map<string, list<entitytag>>', source: { kind: 'computed', compute: messageTags },
      description: 'The people and pages the caption names, keyed by where each name starts.' },
    { name: 'page_story_id', type: 'string',
      description: 'For a photo a page posted, the id of the post that announced it.' },
    { name: 'place', type: 'page', source: { kind: 'ref', fields: PLACE_FIELDS },
      description: 'The place the photo was taken at.' },
    { name: 'created_time', type: 'datetime', source: { kind: 'createdTime' },
      description: 'When the photo was uploaded.' },
    { name: 'updated_time', type: 'datetime', source: { kind: 'updatedTime' },
      description: 'When the photo or its caption last changed.' },
  ],
  edges: [
    { name: 'likes', target: 'user', assoc: 'likes', summary: 'likes', post: likeObject,
      description: 'People who like the photo.' },
    { name: 'comments', target: 'comment', assoc: 'comments', summary: 'comments', post: commentOnObject,
      ordered: true, streamAssoc: 'thread_comments',
      description: 'Comments written on the photo.' },
    { name: 'sharedposts', target: 'post', assoc: 'sharedposts',
      description: 'Posts that shared the photo.' },
    { name: 'tags', target: 'user',
      description: 'People tagged in the photo.' },
  ],
};
