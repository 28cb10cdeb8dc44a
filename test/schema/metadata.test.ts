import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMetadata } from '../../src/schema/metadata.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { DEFAULT_API_VERSION } from '../../src/schema/versions.js';

const userType = graphSchema().type('user')!;
const pageType = graphSchema().type('page')!;

const urlFor = (edge: string) => `https://loom.test/v2.4/1001/${edge}?access_token=T`;

test('metadata has exactly the keys type, fields and connections, in that order', () => {
  const metadata = renderMetadata(graphSchema(), DEFAULT_API_VERSION, userType, urlFor);
  assert.deepEqual(Object.keys(metadata), ['type', 'fields', 'connections']);
  assert.equal(metadata.type, 'user');
  assert.ok(JSON.stringify(metadata).startsWith('{"type":"user","fields":[{"name":"id","description":'));
});

test('each field entry holds name, description and type, in declaration order', () => {
  const metadata = renderMetadata(graphSchema(), DEFAULT_API_VERSION, userType, urlFor);
  assert.equal(metadata.fields.length, 51);
  assert.deepEqual(metadata.fields.map((field) => field.name), userType.fields.map((field) => field.name));
  for (const entry of metadata.fields) assert.deepEqual(Object.keys(entry), ['name', 'description', 'type']);
  assert.deepEqual(metadata.fields[2], {
    name: 'age_range',
    description: userType.fields[2]!.description,
    type: 'agerange',
  });
});

test('connections map every edge, in declaration order, to the URL the caller builds', () => {
  const metadata = renderMetadata(graphSchema(), DEFAULT_API_VERSION, userType, urlFor);
  assert.deepEqual(Object.keys(metadata.connections), graphSchema().edgesIn(userType, DEFAULT_API_VERSION).map((edge) => edge.name));
  assert.equal(metadata.connections.statuses, undefined, 'statuses is gone from v2.4');
  assert.equal(metadata.connections['payment.subscriptions'], urlFor('payment.subscriptions'));
  assert.equal(metadata.connections.friends, 'https://loom.test/v2.4/1001/friends?access_token=T');
});

test('metadata of another type names that type and its own edges', () => {
  const metadata = renderMetadata(graphSchema(), DEFAULT_API_VERSION, pageType, (edge) => `/p/${edge}`);
  assert.equal(metadata.type, 'page');
  assert.deepEqual(metadata.connections, {
    albums: '/p/albums', events: '/p/events', feed: '/p/feed', milestones: '/p/milestones', photos: '/p/photos',
    picture: '/p/picture', posts: '/p/posts', tagged: '/p/tagged', videos: '/p/videos',
  });
});
