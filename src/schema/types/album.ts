/** A named collection of photos belonging to a person or a page. */
import type { NodeTypeDef } from '../definition.js';
import { addPhotoToAlbum, MESSAGE_LENGTH } from '../writes.js';

export const albumType: NodeTypeDef = {
  name: 'album',
  label: 'Album',
  idForm: 'plain',
  visibility: 'privacyWord',
  scope: 'user_photos',
  defaultFields: ['created_time', 'name'],
  // fb_graph2 user/albums.json (v2.0 capture).
  fullDefaultFields: {
    names: ['id', 'from', 'name', 'description', 'link', 'privacy', 'type', 'count', 'cover_photo', 'created_time', 'updated_time'],
  },
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The album's id." },
    { name: 'from', type: 'profile', source: { kind: 'owner' },
      description: 'The person or page the album belongs to.' },
    { name: 'name', type: 'string', writable: { maxLength: 255 },
      description: 'The title of the album.' },
    { name: 'description', type: 'string', writable: { maxLength: MESSAGE_LENGTH },
      description: 'What the album is about, in its owner\'s words.' },
    { name: 'type', type: 'enum',
      description: 'What kind of album this is: normal, profile pictures or wall photos.' },
    { name: 'privacy', type: 'string',
      description: 'Who the owner shares the album with, such as friends or everyone.' },
    { name: 'cover_photo', type: 'photo', source: { kind: 'ref' },
      description: 'The photo shown as the album cover.' },
    { name: 'count', type: 'unsigned int32', source: { kind: 'count', assoc: 'album_photos' },
      description: 'How many photos the album holds.' },
    { name: 'created_time', type: 'datetime', source: { kind: 'createdTime' },
      description: 'When the album was created.' },
    { name: 'updated_time', type: 'datetime', source: { kind: 'updatedTime' },
      description: 'When the album or its photos last changed.' },
    { name: 'link', type: 'string',
      source: { kind: 'computed', compute: (object, context) => `${context.profileHost}/album.php?fbid=${object.id}` },
      description: 'Address of the page that shows the album.' },
  ],
  edges: [
    { name: 'photos', target: 'photo', assoc: 'album_photos', post: addPhotoToAlbum,
      description: 'The photos in the album, newest first.' },
    { name: 'likes', target: 'user', assoc: 'likes', summary: 'likes',
      description: 'People who like the album.' },
    { name: 'comments', target: 'comment', assoc: 'comments', summary: 'comments',
      ordered: true, streamAssoc: 'thread_comments',
      description: 'Comments written on the album.' },
    { name: 'picture', target: 'photo', special: 'picture',
      description: "The album's cover image." },
  ],
};
