import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { addMediaGraph, type MediaGraph } from '../helpers/media-graph.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('groups over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let graph: MediaGraph;
  let token: string;
  let me: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    graph = await addMediaGraph(fixture);
    token = fixture.aliceToken;
    me = fixture.scoped(fixture.users.alice);
  });

  it('lists the groups a person administers with user_managed_groups, and none without', async () => {
    const managed = await server.get('/v2.4/me/groups', { access_token: await fixture.aliceWith('user_managed_groups') });
    assert.equal(managed.status, 200, managed.text);
    assert.deepEqual(managed.body.data, [{ name: 'Weavers', id: String(graph.groups.weavers) }]);
    const without = await server.get('/v2.4/me/groups', { access_token: await fixture.aliceWith() });
    assert.equal(without.status, 200);
    assert.equal(without.text, '{"data":[]}');
  });

  it('says up to v2.3 whether each member, and each of a person\'s groups, is administered by them', async () => {
    const managing = await fixture.aliceWith('user_managed_groups');
    const groups = await server.get('/v2.3/me/groups', { access_token: managing });
    assert.deepEqual(groups.body.data, [{ name: 'Weavers', id: String(graph.groups.weavers), administrator: true, bookmark_order: 1 }]);
    const members = await server.get(`/v2.3/${graph.groups.weavers}/members`, { access_token: managing, fields: 'id,administrator', limit: '100' });
    assert.equal(members.status, 200, members.text);
    const admins = members.body.data.filter((member: { administrator: boolean }) => member.administrator).map((member: { id: string }) => member.id);
    assert.deepEqual(admins, [fixture.scoped(fixture.users.alice)]);
    assert.ok(members.body.data.length > 1);
    const current = await server.get(`/v2.4/${graph.groups.weavers}/members`, { access_token: managing });
    for (const member of current.body.data) assert.equal(member.administrator, undefined);
    assert.equal((await server.get('/v2.4/me/groups', { access_token: managing, fields: 'administrator' })).status, 400);
  });

  it('says up to v2.3 where each of a person\'s groups sits in their bookmarks, on every page, and only when asked for or by default', async () => {
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_managed_groups']);
    const order = async (version: string, params: Record<string, string>) => {
      const answer = await server.get(`/${version}/me/groups`, { access_token: bob, ...params });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data.map((group: { name?: string; bookmark_order?: number }) => [group.name, group.bookmark_order]);
    };
    const all = await order('v2.0', { limit: '10' });
    assert.deepEqual(new Map(all), new Map([['Knitters', 2], ['Spinners', 1], ['Dyers', 3]]));
    const [first, ...rest] = all;
    assert.deepEqual(await order('v2.3', { limit: '1' }), [first]);
    const next = (await server.get('/v2.2/me/groups', { access_token: bob, limit: '1' })).body.paging.next as string;
    const after = await server.fetch(next.replace('limit=1', 'limit=2'));
    assert.deepEqual(after.body.data.map((group: { name: string; bookmark_order: number }) => [group.name, group.bookmark_order]), rest);
    assert.deepEqual(await order('v2.1', { fields: 'name,bookmark_order', limit: '10' }), all);
    assert.deepEqual(await order('v2.1', { fields: 'name', limit: '10' }), all.map(([name]: [string]) => [name, undefined]));
    assert.equal((await server.get('/v2.4/me/groups', { access_token: bob, fields: 'bookmark_order' })).status, 400);
    assert.deepEqual(await order('v2.4', { limit: '10' }), all.map(([name]: [string]) => [name, undefined]));
  });

  it('carries icon_size=16 in the offset links of a person\'s groups up to v2.2, as the service did, and not in their members\' links', async () => {
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_managed_groups']);
    const first = await server.get('/v2.0/me/groups', { access_token: bob, limit: '1' });
    assert.equal(first.status, 200, first.text);
    const next = new URL(first.body.paging.next);
    assert.deepEqual([...next.searchParams.keys()], ['icon_size', 'access_token', 'limit', 'offset', '__after_id']);
    assert.equal(next.searchParams.get('icon_size'), '16');
    // Followed, the link keeps it, and the page after links on from where it left off.
    const second = await server.fetch(first.body.paging.next);
    assert.equal(second.status, 200, second.text);
    assert.notDeepEqual(second.body.data, first.body.data);
    assert.equal(new URL(second.body.paging.previous).searchParams.get('icon_size'), '16');
    const asked = await server.get('/v2.2/me/groups', { access_token: bob, limit: '1', icon_size: '50' });
    assert.equal(new URL(asked.body.paging.next).searchParams.get('icon_size'), '50', 'the request\'s own value stays');
    const current = await server.get('/v2.3/me/groups', { access_token: bob, limit: '1' });
    assert.equal(new URL(current.body.paging.next).searchParams.get('icon_size'), null);
    const members = await server.get(`/v2.2/${graph.groups.weavers}/members`, { access_token: bob, limit: '1' });
    assert.equal(members.status, 200, members.text);
    assert.equal(new URL(members.body.paging.next).searchParams.get('icon_size'), null);
  });

  it('reads the Group node in its v2.4 shape, with its members and feed', async () => {
    const id = String(graph.groups.weavers);
    const read = await server.get(`/v2.4/${id}`, {
      access_token: token,
      fields: 'name,description,privacy,owner,icon,email,member_request_count,updated_time',
    });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, {
      name: 'Weavers',
      description: 'People who weave.',
      privacy: 'OPEN',
      owner: { name: 'Alice Arden', id: me },
      icon: `${server.url}/media/silhouette.svg`,
      email: `${id}@groups.facebook.com`,
      member_request_count: 0,
      updated_time: read.body.updated_time,
      id,
    });
    const edges = await server.get(`/v2.4/${id}`, { access_token: token, fields: 'members.summary(true){name},feed{message,from},events{name}' });
    assert.deepEqual(edges.body.members.data.map((person: any) => person.name), ['Friend 00', 'Bob Brook', 'Alice Arden']);
    assert.equal(edges.body.members.summary.total_count, 3);
    assert.deepEqual(edges.body.feed.data.map((post: any) => [post.message, post.from.name]), [['Warp and weft', 'Bob Brook']]);
    assert.deepEqual(edges.body.events.data, [{ name: 'Loom party', id: String(graph.events.party) }]);
  });

  it('takes a post from a member, in the group only, and refuses strangers and tokens without publish_actions', async () => {
    const knitters = String(graph.groups.knitters);
    const posted = await server.form(`/v2.4/${knitters}/feed`, { access_token: token, message: 'Purl two' });
    assert.equal(posted.status, 200, posted.text);
    assert.match(posted.body.id, new RegExp(`^${me}_\\d+$`));
    const feed = await server.get(`/v2.4/${knitters}/feed`, { access_token: token, fields: 'message,from,to,status_type' });
    assert.deepEqual(feed.body.data, [{
      message: 'Purl two',
      from: { name: 'Alice Arden', id: me },
      to: { data: [{ name: 'Knitters', id: knitters }] },
      status_type: 'wall_post',
      id: posted.body.id,
    }]);
    const mine = await server.get('/v2.4/me/feed', { access_token: token, fields: 'message', limit: '100' });
    assert.ok(!mine.body.data.some((post: any) => post.message === 'Purl two'), 'a group post stays in the group');

    const stranger = await server.form(`/v2.4/${graph.groups.spinners}/feed`, { access_token: token, message: 'Let me in' });
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.error.code, 200);
    const reader = await server.form(`/v2.4/${knitters}/feed`, { access_token: await fixture.aliceWith('user_managed_groups'), message: 'no' });
    assert.equal(reader.status, 403);
    assert.equal(reader.body.error.message, '(#200) Requires extended permission: publish_actions');
    const empty = await server.form(`/v2.4/${knitters}/feed`, { access_token: token });
    assert.equal(empty.status, 400);
  });

  it('shows a secret group to its members only, and a closed one to anyone', async () => {
    const dyers = String(graph.groups.dyers);
    const hidden = await server.get(`/v2.4/${dyers}`, { access_token: token, fields: 'name' });
    assert.equal(hidden.status, 400, hidden.text);
    assert.equal(hidden.body.error.code, 100);
    const bob = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_managed_groups']);
    assert.deepEqual((await server.get(`/v2.4/${dyers}`, { access_token: bob, fields: 'name,privacy' })).body, { name: 'Dyers', privacy: 'SECRET', id: dyers });
    const bobs = await server.get('/v2.4/me/groups', { access_token: bob, fields: 'name', limit: '10' });
    assert.deepEqual(bobs.body.data.map((group: any) => group.name), ['Dyers', 'Spinners', 'Knitters']);
    const knitters = String(graph.groups.knitters);
    const dave = await fixture.tokenFor(fixture.users.dave, ['public_profile']);
    assert.deepEqual((await server.get(`/v2.4/${knitters}`, { access_token: dave, fields: 'name' })).body, { name: 'Knitters', id: knitters });
  });

  it('describes the Group node with metadata=1', async () => {
    const read = await server.get(`/v2.4/${graph.groups.weavers}`, { access_token: token, metadata: '1' });
    assert.equal(read.body.metadata.type, 'group');
    assert.deepEqual(read.body.metadata.fields.map((field: any) => field.name), [
      'id', 'name', 'description', 'privacy', 'owner', 'icon', 'cover', 'email', 'updated_time', 'member_request_count',
    ]);
    assert.deepEqual(Object.keys(read.body.metadata.connections), ['feed', 'members', 'photos', 'albums', 'events', 'videos']);
  });
});
