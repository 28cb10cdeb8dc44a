import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeTypeDef } from '../../src/schema/definition.js';
import { Permissions } from '../../src/schema/permissions.js';
import { PUBLISHED_VERSIONS } from '../../src/schema/versions.js';
import { Schema } from '../../src/schema/registry.js';
import { graphSchema } from '../../src/graph/graph-schema.js';

function nodeType(overrides: Partial<NodeTypeDef>): NodeTypeDef {
  return {
    name: 'thing', label: 'Thing', idForm: 'plain', visibility: 'public', defaultFields: [],
    fields: [{ name: 'id', type: 'numeric string', description: 'Its id.', source: { kind: 'id' } }],
    edges: [],
    ...overrides,
  };
}

test('the default schema holds the twelve node types', () => {
  const schema = graphSchema();
  assert.deepEqual(
    schema.types.map((type) => type.name),
    ['user', 'post', 'comment', 'photo', 'album', 'page', 'application', 'video', 'event', 'group', 'friendlist', 'placetopic'],
  );
  for (const type of schema.types) assert.equal(schema.type(type.name), type);
  assert.equal(schema.type('place'), undefined);
});

test('fields and edges are found by name, and only as what they are', () => {
  const schema = graphSchema();
  const user = schema.type('user')!;
  assert.equal(schema.field(user, 'birthday')?.scope, 'user_birthday');
  assert.equal(schema.edge(user, 'payment.subscriptions')?.name, 'payment.subscriptions');
  assert.equal(schema.field(user, 'friends'), undefined);
  assert.equal(schema.edge(user, 'name'), undefined);
  assert.equal(schema.field(user, 'hometwn'), undefined);
  const post = schema.type('post')!;
  assert.equal(schema.edge(post, 'likes')?.summary, 'likes');
  // A page's `likes` is its fan count up to v2.5 and the pages it likes from v2.6.
  const page = schema.type('page')!;
  assert.equal(schema.field(page, 'likes', 'v2.5')?.name, 'likes');
  assert.equal(schema.edge(page, 'likes', 'v2.5'), undefined);
  assert.equal(schema.field(page, 'likes', 'v2.6'), undefined);
  assert.equal(schema.edge(page, 'likes', 'v2.6')?.assoc, 'liked_pages');
  assert.equal(schema.field(post, 'birthday'), undefined);
});

test('no type uses a name both as a field and as an edge in one version, and every edge target resolves', () => {
  const schema = graphSchema();
  for (const type of schema.types) {
    for (const edge of type.edges) {
      for (const { name: version } of PUBLISHED_VERSIONS) {
        const both = schema.field(type, edge.name, version) && schema.edge(type, edge.name, version);
        assert.ok(!both, `${type.name}.${edge.name} is not also a field in ${version}`);
      }
      assert.ok(schema.type(edge.target), `${type.name}.${edge.name} → ${edge.target}`);
    }
  }
});

test('every type declares an id field and default fields it actually has', () => {
  const schema = graphSchema();
  for (const type of schema.types) {
    assert.equal(schema.field(type, 'id')?.source?.kind, 'id', `${type.name}.id`);
    for (const name of type.defaultFields) assert.ok(schema.field(type, name), `${type.name}.${name}`);
    for (const item of [...type.fields, ...type.edges]) {
      assert.ok(item.description.trim() !== '', `${type.name}.${item.name} has a description`);
    }
  }
});

test('allScopes lists every declared scope and the catalogue, sorted and once each', () => {
  const scopes = graphSchema().allScopes();
  assert.deepEqual(scopes, [...scopes].sort());
  assert.equal(new Set(scopes).size, scopes.length);
  for (const scope of [
    'email', 'public_profile', 'publish_actions', 'read_custom_friendlists', 'user_about_me', 'user_birthday',
    'user_education_history', 'user_events', 'user_friends', 'user_hometown', 'user_likes', 'user_location',
    'user_managed_groups', 'user_photos', 'user_posts', 'user_relationship_details', 'user_relationships',
    'user_religion_politics', 'user_tagged_places', 'user_videos', 'user_website', 'user_work_history',
  ]) {
    assert.ok(scopes.includes(scope), scope);
  }
});

test('allScopes are the permissions the schema offers in the version asked, sorted', () => {
  const permissions = new Permissions(
    [
      { name: 'basic', description: 'Who the person is.' },
      { name: 'user_shoes', description: 'The shoes the person owns.', versions: { since: 'v2.3' } },
      { name: 'old_shoes', description: 'Shoes, before user_shoes.', versions: { until: 'v2.3' }, reads: 'user_shoes' },
    ],
    'basic',
  );
  const scoped = nodeType({ edges: [{ name: 'shoes', target: 'thing', scope: 'user_shoes', description: 'Shoes.' }] });
  const schema = new Schema([scoped], { permissions });
  assert.deepEqual(schema.allScopes(), ['basic', 'user_shoes']);
  assert.deepEqual(schema.allScopes('v2.2'), ['basic', 'old_shoes']);
  assert.ok(schema.permissions.offers('user_shoes') && !schema.permissions.offers('old_shoes'));
  assert.deepEqual(schema.permissions.readersOf('user_shoes', 'v2.2'), ['user_shoes', 'old_shoes']);
  assert.deepEqual(schema.permissions.readersOf('user_shoes', 'v2.4'), ['user_shoes']);
  assert.throws(() => new Schema([scoped]), /"thing\.shoes" needs permission "user_shoes", which the schema does not declare/);
  assert.deepEqual(new Schema([nodeType({})]).allScopes(), ['public_profile'], 'a schema declaring none offers public_profile alone');
});

test('a type declared twice is rejected', () => {
  assert.throws(() => new Schema([nodeType({}), nodeType({})]), /node type "thing" is declared twice/);
});

test('a field or an edge declared twice is rejected', () => {
  const id = { name: 'id', type: 'numeric string', description: 'Its id.' };
  assert.throws(() => new Schema([nodeType({ fields: [id, id] })]), /field "thing.id" is declared twice/);
  const edge = { name: 'parts', target: 'thing', description: 'Parts.' };
  assert.throws(() => new Schema([nodeType({ edges: [edge, edge] })]), /edge "thing.parts" is declared twice/);
});

test('a name used as both a field and an edge is rejected', () => {
  const type = nodeType({ edges: [{ name: 'id', target: 'thing', description: 'Clash.' }] });
  assert.throws(() => new Schema([type]), /"thing.id" is declared both as a field and as an edge/);
});

test('an edge to an unknown type is rejected', () => {
  const type = nodeType({ edges: [{ name: 'parts', target: 'widget', description: 'Parts.' }] });
  assert.throws(() => new Schema([type]), /targets unknown node type "widget"/);
});

test('a default field that is not declared is rejected', () => {
  assert.throws(() => new Schema([nodeType({ defaultFields: ['name'] })]), /default field "thing.name"/);
});

test('reference fields are declared fields, never edges', () => {
  const parts = { name: 'parts', target: 'thing', description: 'Parts.' };
  assert.throws(() => new Schema([nodeType({ edges: [parts], fullDefaultFields: { names: ['parts'], reference: ['parts'] } })]), /reference field "thing.parts" is not a declared field/);
  const schema = new Schema([nodeType({ edges: [parts], fullDefaultFields: { names: ['parts'], reference: ['id'] } })]);
  const thing = schema.type('thing')!;
  assert.deepEqual(schema.referenceFields(thing, 'v2.3'), ['id']);
  assert.deepEqual(schema.referenceFields(thing, 'v2.4'), []);
});

test('a request POST may link only nodes that exist already', () => {
  const request = { scope: 'public_profile', item: 'thing', request: 'asks', links: [{ assoc: 'pals', from: 'parent' as const, to: 'item' as const }] };
  const withPost = (post: object) => nodeType({ edges: [{ name: 'pals', target: 'thing', description: 'Pals.', post: post as never }] });
  assert.doesNotThrow(() => new Schema([withPost(request)]));
  assert.throws(() => new Schema([withPost({ ...request, creates: 'thing' })]), /must link existing nodes only/);
  assert.throws(() => new Schema([withPost({ ...request, links: [{ assoc: 'pals', from: 'parent', to: 'created' }] })]), /must link existing nodes only/);
  assert.throws(() => new Schema([withPost({ ...request, links: [] })]), /must link existing nodes only/);
});

test('the search words name the types that claim them, and a type declares its searchable keys', () => {
  const schema = graphSchema();
  assert.equal(schema.searchTarget('user')?.type.name, 'user');
  assert.deepEqual([schema.searchTarget('page')?.type.name, schema.searchTarget('page')?.located], ['page', false]);
  assert.deepEqual([schema.searchTarget('place')?.type.name, schema.searchTarget('place')?.located], ['page', true]);
  assert.equal(schema.searchTarget('placetopic')?.type.name, 'placetopic');
  assert.deepEqual(schema.searchable().find((entry) => entry.type === 'page')?.point, { latitude: 'location.latitude', longitude: 'location.longitude' });
  const page = schema.type('page')!;
  assert.throws(() => new Schema([{ ...page, name: 'other', search: { as: [{ type: 'page' }], fields: ['name'] } }, page]), /search type "page" is claimed twice/);
  assert.throws(() => new Schema([{ ...page, search: { as: [{ type: 'place', located: true }], fields: ['name'] } }]), /by position but declares none/);
});
