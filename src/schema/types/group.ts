/** A group of people who share posts, photos, events and videos, run by its administrators. */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import type { StoredObject } from '../../store/store.js';
import { silhouetteUrl } from '../media.js';
import { postToGroup, uploadVideoTo } from '../writes.js';

/** Every group gets an address people can mail posts to. */
function email(object: StoredObject): string {
  return `${object.id}@groups.facebook.com`;
}

export const groupType: NodeTypeDef = {
  name: 'group',
  label: 'Group',
  idForm: 'plain',
  // Anyone finds an open or closed group; a secret one only its members.
  visibility: { word: 'privacy', open: ['OPEN', 'CLOSED'], members: 'members' },
  defaultFields: ['name'],
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The group's id." },
    { name: 'name', type: 'string',
      description: 'The name of the group.' },
    { name: 'description', type: 'string',
      description: 'What the group is for, in its administrators\' words.' },
    { name: 'privacy', type: 'string',
      description: 'Who may see the group and its posts: OPEN, CLOSED or SECRET.' },
    { name: 'owner', type: 'profile', source: { kind: 'ref' },
      description: 'The person who created the group.' },
    { name: 'icon', type: 'string',
      source: { kind: 'computed', compute: (_object: StoredObject, context: FieldContext) => silhouetteUrl(context.publicUrl) },
      description: 'Address of the small icon shown beside the group name.' },
    { name: 'cover', type: 'coverphoto',
      description: 'The wide photo shown across the top of the group.' },
    { name: 'email', type: 'string', source: { kind: 'computed', compute: email },
      description: 'The address that posts to the group by mail.' },
    { name: 'updated_time', type: 'datetime', source: { kind: 'updatedTime' },
      description: 'When the group or its posts last changed.' },
    { name: 'member_request_count', type: 'int32', source: { kind: 'count', assoc: 'member_requests' },
      description: 'How many people are waiting to be let into the group.' },
  ],
  edges: [
    { name: 'feed', target: 'post', assoc: 'feed', post: postToGroup,
      description: 'Posts in the group, newest first; members may add to them.' },
    { name: 'members', target: 'user', assoc: 'members',
      description: 'The people in the group.' },
    { name: 'photos', target: 'photo', assoc: 'photos',
      description: 'Photos shared in the group.' },
    { name: 'albums', target: 'album', assoc: 'albums',
      description: 'Photo albums of the group.' },
    { name: 'events', target: 'event', assoc: 'events',
      description: 'Events the group hosts.' },
    { name: 'videos', target: 'video', assoc: 'videos', post: uploadVideoTo('members'),
      description: 'Videos shared in the group; members may add to them.' },
  ],
  search: { as: [{ type: 'group' }], fields: ['name'] },
};
