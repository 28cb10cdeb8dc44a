/** An app registered with Loom: the holder of tokens and the party users grant permissions to. */
import type { FieldContext, NodeTypeDef } from '../definition.js';
import type { StoredObject } from '../../store/store.js';
import { createTestUser } from '../writes.js';

/** The app's page on the profile host, as the real service words it. */
function appLink(object: StoredObject, context: FieldContext): string {
  return `${context.profileHost}/apps/application.php?id=${object.id}`;
}

export const applicationType: NodeTypeDef = {
  name: 'application',
  label: 'Application',
  idForm: 'plain',
  visibility: 'public',
  defaultFields: ['category', 'link', 'name', 'namespace'],
  fields: [
    { name: 'id', type: 'numeric string', source: { kind: 'id' },
      description: "The app's id." },
    { name: 'name', type: 'string',
      description: 'The name of the app.' },
    { name: 'namespace', type: 'string',
      description: 'The short name that identifies the app in addresses.' },
    { name: 'category', type: 'string',
      description: 'The kind of app this is, such as a game or a utility.' },
    { name: 'description', type: 'string',
      description: 'What the app does, in its developer\'s words.' },
    { name: 'link', type: 'string', source: { kind: 'computed', compute: appLink },
      description: 'The web address of the app.' },
    { name: 'restrictions', type: 'object',
      description: 'Who may see the app: age, location or type restrictions, as the app set them.' },
  ],
  edges: [
    { name: 'picture', target: 'photo', special: 'picture',
      description: "The app's icon." },
    { name: 'roles', target: 'user',
      description: 'People who administer, develop or test the app.' },
    { name: 'accounts', target: 'user', assoc: 'test_users', readers: 'app', items: 'testUser', alias: 'test-users',
      post: createTestUser,
      description: 'Test users of the app, each with a fresh access token when they have the app installed.' },
  ],
};
