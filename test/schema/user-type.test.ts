import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { taggableFriendItems } from '../../src/graph/person-items.js';
import { permissions, picture } from '../../src/graph/special-edges.js';
import { unemulatedEdge } from '../../src/schema/unemulated.js';

const userType = graphSchema().type('user')!;

const SPEC_FIELDS = [
  'id', 'about', 'age_range', 'bio', 'birthday', 'context', 'currency', 'devices', 'education', 'email',
  'favorite_athletes', 'favorite_teams', 'first_name', 'gender', 'hometown', 'inspirational_people',
  'install_type', 'installed', 'interested_in', 'is_shared_login', 'is_verified', 'languages', 'last_name',
  'link', 'location', 'locale', 'meeting_for', 'middle_name', 'name', 'name_format', 'payment_pricepoints',
  'test_group', 'political', 'relationship_status', 'religion', 'security_settings', 'significant_other',
  'sports', 'quotes', 'third_party_id', 'timezone', 'token_for_business', 'updated_time',
  'shared_login_upgrade_required_by', 'verified', 'video_upload_limits', 'viewer_can_send_gift', 'website',
  'work', 'public_key', 'cover',
];

const SPEC_EDGES = [
  'favorite_requests', 'request_history', 'accounts', 'achievements', 'adaccounts', 'adaccountgroups',
  'adcontracts', 'admined_groups', 'adnetworkanalytics', 'albums', 'applications', 'apprequests',
  'apprequestformerrecipients', 'books', 'brand_teams', 'businesses', 'businesssettinglogs', 'checkins',
  'commission_splits', 'conversations', 'domains', 'events', 'family', 'feed', 'stream_filters', 'friendlists',
  'friendrequests', 'friends', 'ids_for_business', 'insights', 'integrated_plugin_feed', 'invitable_friends',
  'games', 'groups', 'home', 'inbox', 'likes', 'locations', 'movies', 'music', 'notifications', 'notify_me',
  'objects', 'outbox', 'ownerapps', 'payment.subscriptions', 'payments', 'payment_transactions', 'permissions',
  'photos', 'picture', 'tagged_places', 'platformrequests', 'pokes', 'posts', 'privacy_options',
  'promotable_domains', 'promotable_events', 'ratings', 'scores', 'screennames', 'taggable_friends', 'tagged',
  'television', 'threads', 'updates', 'videos', 'video_broadcasts',
];

test('the user type declares exactly the 51 spec fields in spec order', () => {
  assert.equal(SPEC_FIELDS.length, 51);
  assert.deepEqual(userType.fields.map((field) => field.name), SPEC_FIELDS);
});

test('in v2.4 the user type has exactly the 68 spec edges in spec order', () => {
  assert.equal(SPEC_EDGES.length, 68);
  assert.deepEqual(graphSchema().edgesIn(userType, 'v2.4').map((edge) => edge.name), SPEC_EDGES);
});

test('before v2.4 the user type also has the statuses and links edges', () => {
  assert.deepEqual(graphSchema().edgesIn(userType, 'v2.3').map((edge) => edge.name), [...SPEC_EDGES, 'statuses', 'links']);
});

test('every user field has a type, a one-line description and a scope', () => {
  for (const field of userType.fields) {
    assert.ok(field.type.trim() !== '', `${field.name} has a type`);
    assert.ok(field.description.trim() !== '', `${field.name} has a description`);
    assert.ok(!field.description.includes('\n'), `${field.name} description is one line`);
    assert.ok(field.scope, `${field.name} has a scope`);
  }
});

test('every user edge has a description, a known target and a scope', () => {
  const schema = graphSchema();
  for (const edge of userType.edges) {
    assert.ok(edge.description.trim() !== '', `${edge.name} has a description`);
    assert.ok(schema.type(edge.target), `${edge.name} targets a known type (${edge.target})`);
    assert.ok(edge.scope, `${edge.name} has a scope`);
  }
});

test('user field types follow the metadata vocabulary', () => {
  const typeOf = (name: string) => userType.fields.find((field) => field.name === name)?.type;
  assert.equal(typeOf('id'), 'numeric string');
  assert.equal(typeOf('age_range'), 'agerange');
  assert.equal(typeOf('timezone'), 'float (min: -24) (max: 24)');
  assert.equal(typeOf('education'), 'list<educationexperience>');
  assert.equal(typeOf('work'), 'list<workexperience>');
  assert.equal(typeOf('devices'), 'list<userdevice>');
  assert.equal(typeOf('hometown'), 'page');
  assert.equal(typeOf('significant_other'), 'user');
  assert.equal(typeOf('cover'), 'coverphoto');
  assert.equal(typeOf('updated_time'), 'datetime');
  assert.equal(typeOf('verified'), 'bool');
});

test('user fields require the v2.4 permission that guards them', () => {
  const scopeOf = (name: string) => userType.fields.find((field) => field.name === name)?.scope;
  assert.equal(scopeOf('name'), 'public_profile');
  assert.equal(scopeOf('email'), 'email');
  assert.equal(scopeOf('birthday'), 'user_birthday');
  assert.equal(scopeOf('hometown'), 'user_hometown');
  assert.equal(scopeOf('location'), 'user_location');
  assert.equal(scopeOf('education'), 'user_education_history');
  assert.equal(scopeOf('work'), 'user_work_history');
  assert.equal(scopeOf('about'), 'user_about_me');
  assert.equal(scopeOf('relationship_status'), 'user_relationships');
  assert.equal(scopeOf('interested_in'), 'user_relationship_details');
  assert.equal(scopeOf('religion'), 'user_religion_politics');
  assert.equal(scopeOf('website'), 'user_website');
  assert.equal(scopeOf('favorite_teams'), 'user_likes');
});

test('user edges with Loom data name their association; the others are products Loom does not emulate', () => {
  const edge = (name: string) => userType.edges.find((item) => item.name === name);
  assert.deepEqual(
    { ...edge('friends') },
    {
      name: 'friends', target: 'user', assoc: 'friends', scope: 'user_friends', summary: 'count',
      alwaysSummary: true, itemsGranted: 'user_friends', post: edge('friends')?.post, offsetPaging: 'offset-paging',
      description: edge('friends')?.description,
    },
  );
  assert.equal(edge('feed')?.assoc, 'feed');
  assert.equal(edge('feed')?.scope, 'user_posts');
  assert.equal(edge('posts')?.assoc, 'posts');
  assert.equal(edge('photos')?.assoc, 'photos');
  assert.equal(edge('albums')?.assoc, 'albums');
  assert.equal(edge('likes')?.assoc, 'liked_pages');
  assert.equal(edge('likes')?.target, 'page');
  assert.equal(edge('picture')?.special, picture);
  assert.equal(edge('permissions')?.special, permissions);
  assert.equal(edge('books')?.assoc, 'liked_books');
  assert.equal(edge('books')?.target, 'page');
  assert.equal(edge('taggable_friends')?.target, 'user');
  assert.equal(edge('groups')?.assoc, 'managed_groups');
  assert.deepEqual(edge('events')?.byType?.assocs.created, 'events_created');
  assert.deepEqual(edge('videos')?.byType?.default, 'tagged');
  assert.equal(edge('taggable_friends')?.items, taggableFriendItems);
  assert.equal(edge('home')?.through, 'friends');
  const withData = userType.edges.filter((item) => item.assoc !== undefined || item.special !== undefined || item.byType !== undefined);
  assert.deepEqual(
    withData.map((item) => item.name).sort(),
    [
      'accounts', 'albums', 'books', 'checkins', 'events', 'family', 'feed', 'friendlists', 'friendrequests', 'friends', 'games', 'groups', 'home',
      'ids_for_business', 'likes', 'movies', 'music', 'permissions', 'photos', 'picture', 'posts', 'taggable_friends', 'tagged', 'tagged_places',
      'television', 'videos',
    ],
  );
  // Events, groups, videos and managed pages come with their own node types; statuses and links only answer before v2.4.
  const pending = ['accounts', 'events', 'groups', 'videos', 'statuses', 'links'];
  for (const item of userType.edges) {
    if (withData.includes(item) || pending.includes(item.name)) continue;
    assert.ok(unemulatedEdge('user', item.name), `${item.name} is in the table of unemulated products`);
  }
});

test('a user shows only their name (and id) by default and is visible to anyone', () => {
  assert.deepEqual(userType.defaultFields, ['name']);
  assert.equal(userType.visibility, 'public');
  assert.equal(userType.idForm, 'user');
  assert.equal(userType.label, 'User');
});
