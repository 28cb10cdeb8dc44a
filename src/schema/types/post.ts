/**
 * A post on a wall: a status, a shared link or a photo story. Its id is compound
 * (`<author>_<post>`) and who may read it follows its own privacy setting.
 */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import { commentOnObject, likeObject, MESSAGE_LENGTH } from '../writes.js';
import type { StoredObject } from '../../store/store.js';
import { imageKeyOf, photoSourceUrl, photoThumbnailUrl, type PhotoImage } from '../media.js';

/** Photo stories point at their photo by id; only they have a picture to show. */
/** A photo post shows its photo; the post keeps the photo's image key beside its id for this. */
function photoUrl(build: (publicUrl: string, photo: PhotoImage) => string) {
  return (object: StoredObject, context: FieldContext): string | undefined => {
    const photoId = object.data.object_id;
    if (typeof photoId !== 'string' || photoId === '') return undefined;
    return build(context.publicUrl, { id: photoId, key: imageKeyOf(object.data) });
  };
}

export const postType: NodeTypeDef = {
  name: 'post',
  label: 'Post',
  idForm: 'post',
  visibility: 'privacy',
  defaultFields: ['message', 'story', 'created_time'],
  // fb_graph2 user/feed.json and user/posts.json (v2.0 captures).
  fullDefaultFields: {
    names: ['id', 'from', 'to', 'message', 'story', 'picture', 'link', 'privacy', 'type', 'status_type', 'object_id', 'created_time', 'updated_time', 'likes', 'comments'],
  },
  fields: [
    { name: 'id', type: 'string', source: { kind: 'id' },
      description: "The post's id: its author's id and the post's own number joined by an underscore." },
    { name: 'from', type: 'profile', source: { kind: 'owner' },
      description: 'The person or page that wrote the post.' },
    { name: 'to', type: 'list<profile>', source: { kind: 'ref', many: true },
      description: 'Whose wall the post was written on, when that is not the author.' },
    { name: 'message', type: 'string', writable: { maxLength: MESSAGE_LENGTH },
      description: 'The text the author wrote.' },
    { name: 'story', type: 'string',
      description: 'A sentence describing an action, such as adding a photo, for posts without a message.' },
    { name: 'link', type: 'string',
      description: 'The web address shared in the post.' },
    { name: 'picture', type: 'string', source: { kind: 'computed', compute: photoUrl(photoThumbnailUrl) },
      description: 'A small image of the photo the post shows.' },
    { name: 'full_picture', type: 'string', source: { kind: 'computed', compute: photoUrl(photoSourceUrl) },
      description: 'The full-size image of the photo the post shows.' },
    { name: 'privacy', type: 'privacy',
      description: 'Who may see the post: everyone, the author\'s friends or only the author.' },
    { name: 'type', type: 'enum',
      description: 'What kind of post this is: status, link or photo.' },
    { name: 'status_type', type: 'enum',
      description: 'The action that created the post, such as a status update or added photos.' },
    { name: 'place', type: 'page',
      description: 'The place the post was written at.' },
    { name: 'object_id', type: 'string',
      description: 'Id of the photo the post is about, for photo posts.' },
    { name: 'created_time', type: 'datetime', source: { kind: 'createdTime' },
      description: 'When the post was published.' },
    { name: 'updated_time', type: 'datetime', source: { kind: 'updatedTime' },
      description: 'When the post or one of its comments last changed.' },
  ],
  edges: [
    { name: 'likes', target: 'user', assoc: 'likes', summary: 'likes', post: likeObject,
      description: 'People who like the post.' },
    { name: 'comments', target: 'comment', assoc: 'comments', summary: 'comments', post: commentOnObject,
      ordered: true, streamAssoc: 'thread_comments',
      description: 'Comments written on the post.' },
    { name: 'sharedposts', target: 'post',
      description: 'Posts that shared this one.' },
    { name: 'attachments', target: 'photo', versions: 'post-attachments',
      description: 'Media and links attached to the post.' },
  ],
};
