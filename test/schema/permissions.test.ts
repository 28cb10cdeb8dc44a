import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeTypeDef } from '../../src/schema/definition.js';
import { describePermissions } from '../../src/schema/permission-guide.js';
import { Permissions } from '../../src/schema/permissions.js';
import { Schema } from '../../src/schema/registry.js';
import { graphSchema } from '../../src/graph/graph-schema.js';

const offeredPermissions = (version: 'v2.0' | 'v2.3' | 'v2.4') => graphSchema().permissions.offered(version);

describe('the permission list the Explorer offers', () => {
  const groups = describePermissions(graphSchema());
  const permission = (name: string) => groups.flatMap((group) => group.permissions).find((entry) => entry.name === name);

  it('names each permission of the schema once, in explained groups', () => {
    const names = groups.flatMap((group) => group.permissions.map((entry) => entry.name));
    assert.deepEqual([...names].sort(), graphSchema().allScopes());
    assert.deepEqual(groups.map((group) => group.name), ['Basics', 'Profile', 'Friends', 'Activity', 'Actions', 'Publishing', 'Pages', 'Insights and ads']);
    for (const group of groups) assert.ok(group.description.length > 0, group.name);
    for (const entry of groups.flatMap((group) => group.permissions)) assert.ok(entry.description.length > 10, entry.name);
  });

  it('offers the whole v2.4 catalogue, and no permission retired before it', () => {
    const v24 = [
      'public_profile', 'user_friends', 'email', 'user_about_me', 'user_actions.books', 'user_actions.fitness', 'user_actions.music',
      'user_actions.news', 'user_actions.video', 'user_birthday', 'user_education_history', 'user_events', 'user_games_activity',
      'user_hometown', 'user_likes', 'user_location', 'user_managed_groups', 'user_photos', 'user_posts', 'user_relationships',
      'user_relationship_details', 'user_religion_politics', 'user_tagged_places', 'user_videos', 'user_website', 'user_work_history',
      'read_custom_friendlists', 'read_insights', 'read_audience_network_insights', 'read_page_mailboxes', 'manage_pages',
      'publish_pages', 'publish_actions', 'rsvp_event', 'ads_read', 'ads_management',
    ];
    assert.deepEqual(offeredPermissions('v2.4').map((permission) => permission.name).sort(), [...v24].sort());
    const earlier = offeredPermissions('v2.3').map((permission) => permission.name);
    assert.ok(earlier.includes('read_stream') && !earlier.includes('read_audience_network_insights'));
    assert.ok(!offeredPermissions('v2.0').some((permission) => permission.name === 'xmpp_login'), 'retired with v1.0');
    assert.ok(offeredPermissions('v2.0').some((permission) => permission.name === 'user_groups'));
  });

  it('reads what each permission unlocks from the schema', () => {
    assert.deepEqual(permission('user_birthday')?.fields, ['user.birthday']);
    assert.deepEqual(permission('user_friends')?.edges, ['user/friends', 'user/taggable_friends']);
    assert.deepEqual(permission('user_posts')?.edges, ['user/feed', 'user/home', 'user/posts', 'user/tagged']);
    assert.ok(permission('user_photos')?.fields.includes('photo.source'), 'a type-level scope covers its fields');
    assert.ok(!permission('user_photos')?.fields.includes('photo.id'), 'but not the id');
    assert.ok(permission('public_profile')?.writes.includes('user/friends'), 'a write names its own permission');
    assert.ok(!permission('publish_actions')?.writes.includes('application/accounts'), 'an app-token write needs no person');
    const writes = permission('publish_actions')?.writes ?? [];
    for (const edge of ['user/feed', 'post/likes', 'post/comments']) assert.ok(writes.includes(edge), edge);
    const schema = graphSchema();
    for (const write of writes) {
      const [typeName, edgeName] = write.split('/');
      assert.ok(schema.edge(schema.type(typeName!)!, edgeName!)?.post, `${write} takes POSTs`);
    }
  });

  it('lists permissions of no group under "Other", after the groups, in the order declared', () => {
    const shoe: NodeTypeDef = {
      name: 'shoe',
      label: 'Shoe',
      idForm: 'plain',
      visibility: 'public',
      defaultFields: ['id'],
      fields: [
        { name: 'id', type: 'string', description: 'Id.', source: { kind: 'id' } },
        { name: 'size', type: 'string', description: 'Size.', scope: 'user_shoes' },
      ],
      edges: [],
    };
    const permissions = new Permissions(
      [
        { name: 'user_shoes', description: 'The shoes the person owns.' },
        { name: 'basic', description: 'Who the person is.', group: 'Basics' },
      ],
      'basic',
      [{ name: 'Basics', description: 'The person.' }],
    );
    const groups = describePermissions(new Schema([shoe], { permissions }));
    assert.deepEqual(groups.map((group) => [group.name, group.description, group.permissions.map((entry) => entry.name)]), [
      ['Basics', 'The person.', ['basic']],
      ['Other', 'Permissions this schema declares.', ['user_shoes']],
    ]);
    assert.deepEqual(groups[1]!.permissions[0], { name: 'user_shoes', description: 'The shoes the person owns.', fields: ['shoe.size'], edges: [], writes: [] });
  });
});
