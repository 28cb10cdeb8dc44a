/**
 * A list a person sorted some of their friends into: one they made themselves, or one the
 * service keeps for them (close friends, acquaintances, people from a school or workplace).
 * Only its owner sees it, and only through an app they granted read_custom_friendlists.
 */
import type { NodeTypeDef } from '../definition.js';

export const friendlistType: NodeTypeDef = {
  name: 'friendlist',
  label: 'FriendList',
  idForm: 'plain',
  visibility: 'owner',
  scope: 'read_custom_friendlists',
  defaultFields: ['name', 'list_type'],
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The list's id." },
    { name: 'name', type: 'string',
      description: 'The name of the list.' },
    { name: 'list_type', type: 'enum',
      description: 'What kind of list this is: close_friends, acquaintances, restricted, user_created, education, work, current_city or family.' },
    { name: 'owner', type: 'user', source: { kind: 'owner' },
      description: 'The person who owns the list.' },
  ],
  edges: [
    { name: 'members', target: 'user', assoc: 'members',
      description: 'The friends on the list.' },
  ],
};
