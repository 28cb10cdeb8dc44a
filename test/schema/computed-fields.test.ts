import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldContext, NodeTypeDef } from '../../src/schema/definition.js';
import type { StoredObject } from '../../src/store/graph-store.js';
import { graphSchema } from '../../src/graph/graph-schema.js';

const userType = graphSchema().type('user')!;
const photoType = graphSchema().type('photo')!;
const postType = graphSchema().type('post')!;
const pageType = graphSchema().type('page')!;
const commentType = graphSchema().type('comment')!;

/** 2015-07-09T12:00:00Z */
const NOW = Date.UTC(2015, 6, 9, 12) / 1000;

const context: FieldContext = {
  userIdFor: (internalId) => `90${internalId}`,
  publicUrl: 'https://loom.test',
  profileHost: 'https://www.facebook.com',
  tokenForBusiness: (internalId) => `tfb${internalId}`,
  now: NOW,
  viewerId: 7,
  version: 'v2.4',
};

function stored(type: string, data: Record<string, unknown>, id = 42): StoredObject {
  return { id, type, owner: null, createdTime: NOW, updatedTime: NOW, data };
}

function compute(type: NodeTypeDef, name: string, object: StoredObject): unknown {
  const source = type.fields.find((field) => field.name === name)?.source;
  assert.equal(source?.kind, 'computed', `${type.name}.${name} is computed`);
  if (source?.kind !== 'computed') return undefined;
  return source.compute(object, context);
}

const ageRange = (birthday: unknown) => compute(userType, 'age_range', stored('user', { birthday }));

test('age_range puts a birthday in its bracket on the day of the request', () => {
  assert.deepEqual(ageRange('07/09/2002'), { min: 13, max: 17 });
  assert.deepEqual(ageRange('07/10/1997'), { min: 13, max: 17 });
  assert.deepEqual(ageRange('07/09/1997'), { min: 18, max: 20 });
  assert.deepEqual(ageRange('07/10/1994'), { min: 18, max: 20 });
  assert.deepEqual(ageRange('07/09/1994'), { min: 21 });
  assert.deepEqual(ageRange('01/01/1950'), { min: 21 });
});

test('age_range is left out under 13 or without a full birthday', () => {
  assert.equal(ageRange('07/10/2002'), undefined);
  assert.equal(ageRange('07/09'), undefined);
  assert.equal(ageRange('1990'), undefined);
  assert.equal(ageRange(undefined), undefined);
});

test('link is the profile host with the app-scoped id', () => {
  assert.equal(
    compute(userType, 'link', stored('user', {}, 7)),
    'https://www.facebook.com/app_scoped_user_id/907/',
  );
});

test('is_verified mirrors verified and is absent without it', () => {
  assert.equal(compute(userType, 'is_verified', stored('user', { verified: true })), true);
  assert.equal(compute(userType, 'is_verified', stored('user', { verified: false })), false);
  assert.equal(compute(userType, 'is_verified', stored('user', {})), undefined);
});

test('name_format gives the order of the name parts', () => {
  assert.equal(compute(userType, 'name_format', stored('user', {})), '{first} {last}');
});

test('photos point at images served by Loom: uploaded bytes by key, others drawn as placeholders', () => {
  const key = '0f'.repeat(16);
  assert.equal(compute(photoType, 'source', stored('photo', { image: { key, contentType: 'image/png' } }, 54)), `https://loom.test/media/photos/${key}`);
  const photo = stored('photo', { width: 800, height: 600 }, 55);
  assert.equal(compute(photoType, 'source', photo), 'https://loom.test/media/placeholders/55-800x600.svg');
  assert.equal(compute(photoType, 'picture', photo), 'https://loom.test/media/placeholders/55-800x600.svg?size=small');
  assert.deepEqual(compute(photoType, 'images', photo), [
    { height: 600, width: 800, source: 'https://loom.test/media/placeholders/55-800x600.svg' },
  ]);
  assert.deepEqual(compute(photoType, 'images', stored('photo', {}, 56)), [
    { source: 'https://loom.test/media/placeholders/56-720x540.svg' },
  ]);
});

test('a photo post shows its photo; other posts have no picture', () => {
  const photoPost = stored('post', { type: 'photo', object_id: '55' });
  assert.equal(compute(postType, 'picture', photoPost), 'https://loom.test/media/placeholders/55-720x540.svg?size=small');
  assert.equal(compute(postType, 'full_picture', photoPost), 'https://loom.test/media/placeholders/55-720x540.svg');
  assert.equal(compute(postType, 'picture', stored('post', { type: 'status' })), undefined);
  const uploaded = stored('post', { type: 'photo', object_id: '57', image: { key: 'ab'.repeat(16) } });
  assert.equal(compute(postType, 'full_picture', uploaded), `https://loom.test/media/photos/${'ab'.repeat(16)}`);
});

test('a page links to its id on the profile host', () => {
  assert.equal(compute(pageType, 'link', stored('page', {}, 300)), 'https://www.facebook.com/300');
});

test('comments cannot be removed by the viewer', () => {
  assert.equal(compute(commentType, 'can_remove', stored('comment', {})), false);
});
