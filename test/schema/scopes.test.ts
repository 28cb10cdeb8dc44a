import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeTypeDef } from '../../src/schema/definition.js';
import { Schema } from '../../src/schema/registry.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { PUBLISHED_VERSIONS } from '../../src/schema/versions.js';

const schema = graphSchema();
const user = schema.type('user')!;

test('every user field and edge names the permission it needs', () => {
  for (const field of user.fields) assert.ok(schema.field(user, field.name)?.scope, `field ${field.name}`);
  for (const version of ['v2.0', 'v2.4'] as const) {
    for (const edge of schema.edgesIn(user, version)) assert.ok(schema.edge(user, edge.name, version)?.scope, `edge ${edge.name} in ${version}`);
  }
});

test('the user permissions are the ones the real service asks for', () => {
  const fields: Record<string, string> = {
    id: 'public_profile', name: 'public_profile', first_name: 'public_profile', last_name: 'public_profile',
    gender: 'public_profile', locale: 'public_profile', link: 'public_profile', age_range: 'public_profile',
    timezone: 'public_profile', updated_time: 'public_profile', verified: 'public_profile',
    token_for_business: 'public_profile', email: 'email', birthday: 'user_birthday',
  };
  for (const [name, scope] of Object.entries(fields)) assert.equal(schema.field(user, name)?.scope, scope, name);
  const edges: Record<string, string> = {
    friends: 'user_friends', posts: 'user_posts', feed: 'user_posts', photos: 'user_photos', albums: 'user_photos',
    likes: 'user_likes',
  };
  for (const [name, scope] of Object.entries(edges)) assert.equal(schema.edge(user, name)?.scope, scope, name);
});

test('a photo or album needs its owner\'s user_photos for everything but its id', () => {
  for (const typeName of ['photo', 'album']) {
    const type = schema.type(typeName)!;
    assert.equal(schema.field(type, 'id')?.scope, undefined, `${typeName}.id`);
    for (const field of type.fields.filter((f) => f.name !== 'id')) {
      // In a version that has the field: some were answered only before v2.4.
      const inSomeVersion = PUBLISHED_VERSIONS.map(({ name }) => schema.field(type, field.name, name)).find((found) => found !== undefined);
      assert.equal(inSomeVersion?.scope, 'user_photos', `${typeName}.${field.name}`);
    }
    for (const edge of type.edges) assert.equal(schema.edge(type, edge.name)?.scope, 'user_photos', `${typeName}.${edge.name}`);
  }
});

test('writes need publish_actions, befriending no permission beyond public_profile, RSVPs rsvp_event, and test users an app token', () => {
  const posts = schema.types.flatMap((type) =>
    type.edges.filter((edge) => edge.post).map((edge) => ({ at: `${type.name}.${edge.name}`, post: edge.post! })),
  );
  assert.ok(posts.length >= 6);
  for (const { at, post } of posts) {
    const answersInvitation = ['event.attending', 'event.maybe', 'event.declined'].includes(at);
    const expected = at === 'user.friends' ? 'public_profile' : at === 'application.accounts' ? undefined : answersInvitation ? 'rsvp_event' : 'publish_actions';
    assert.equal(post.scope, expected, at);
  }
  assert.equal(typeof schema.edge(schema.type('application')!, 'accounts')?.post?.byApp, 'function', 'an app makes its test users');
  assert.ok(schema.allScopes().includes('publish_actions'));
});

test('a POST made by a person must name its permission', () => {
  const type: NodeTypeDef = {
    name: 'thing', label: 'Thing', idForm: 'plain', visibility: 'public', defaultFields: [],
    fields: [{ name: 'id', type: 'numeric string', description: 'Its id.', source: { kind: 'id' } }],
    edges: [{ name: 'marks', target: 'thing', description: 'Marks.', post: { links: [{ assoc: 'marks', from: 'parent', to: 'viewer' }] } }],
  };
  assert.throws(() => new Schema([type]), /a POST to "thing\.marks" names no permission/);
  const edge = type.edges[0]!;
  const marked = { ...type, edges: [{ ...edge, post: { ...edge.post!, scope: 'publish_actions' } }] };
  assert.throws(() => new Schema([marked]), /a POST to "thing\.marks" needs permission "publish_actions", which the schema does not declare/);
  assert.doesNotThrow(() => new Schema([marked], { permissions: schema.permissions }));
});
