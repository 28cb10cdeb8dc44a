/**
 * A person's edges on the demo graph, over HTTP: each edge Loom emulates answers the demo user's
 * data in the v2.4 shape with its permission and nothing without it; each edge of a product Loom
 * does not emulate answers what its table says.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { DEMO_SEED, DEMO_USERS } from '../../src/config.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { UNEMULATED_EDGES, unemulatedEdge } from '../../src/schema/unemulated.js';
import { PUBLISHED_VERSIONS, rules } from '../../src/schema/versions.js';
import { DEMO_SCOPES } from '../../src/seed/demo-scopes.js';
import { seedGraph } from '../../src/seed/demo-graph.js';
import type { Store } from '../../src/store/store.js';
import type { ObjectId } from '../../src/ids.js';
import { countingStore } from '../helpers/counting-store.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

describe("a person's edges on the demo graph", () => {
  let store: Store;
  let server: TestServer;
  let demoUserId: ObjectId;
  let appId: ObjectId;
  /** Every permission the demo user granted. */
  let token: string;
  /** Only public_profile. */
  let bareToken: string;
  const now = Math.floor(Date.now() / 1000);

  const tokenWith = async (scopes: readonly string[], app = appId) =>
    (await issueUserToken(store, { appId: app, userId: demoUserId, scopes, expiresIn: 3600, now })).accessToken;

  before(async () => {
    store = await openScratchStore();
    // The graph `npm start` serves.
    const seeded = await seedGraph(store, { users: DEMO_USERS, seed: DEMO_SEED, now: now - 3600 });
    demoUserId = seeded.demoUserId;
    appId = seeded.appId;
    token = await tokenWith(DEMO_SCOPES);
    bareToken = await tokenWith(['public_profile']);
    server = await startServer(store);
  });

  after(async () => {
    await server?.close();
    await store?.close();
  });

  const get = (path: string, params: Record<string, string> = {}, accessToken = token) => server.get(path, { access_token: accessToken, ...params });

  function assertOk(reply: Reply): void {
    assert.equal(reply.status, 200, reply.text);
  }

  it('answers data for every edge metadata=1 lists, or what the table of unemulated products says, or (#12) for what v2.4 retired', async () => {
    const metadata = await get('/v2.4/me', { metadata: '1', fields: 'id' });
    assertOk(metadata);
    const edges = Object.keys(metadata.body.metadata.connections);
    assert.equal(edges.length, 68);
    const user = graphSchema().type('user')!;
    for (const edge of edges) {
      const reply = await get(`/v2.4/me/${edge}`, edge === 'picture' ? { redirect: 'false' } : {});
      const unemulated = unemulatedEdge('user', edge);
      const served = user.edges.find((declared) => declared.name === edge)?.servedWhile;
      if (served && !rules.has(served, 'v2.4')) {
        assert.equal(reply.status, 400, `${edge}: ${reply.text}`);
        assert.equal(reply.body.error.message, `(#12) ${edge} is deprecated for versions v2.4 and higher`);
      } else if (unemulated?.answer.kind === 'error') {
        assert.equal(reply.status, unemulated.answer.refusal === 'permission' ? 403 : 400, `${edge}: ${reply.text}`);
        assert.deepEqual(
          { message: reply.body.error.message, code: reply.body.error.code, type: reply.body.error.type },
          { message: unemulated.answer.message, code: unemulated.answer.code, type: 'OAuthException' },
          edge,
        );
      } else if (unemulated) {
        assert.equal(reply.text, '{"data":[]}', edge);
      } else {
        assert.equal(reply.status, 200, `${edge}: ${reply.text}`);
        const data = reply.body.data;
        assert.ok(Array.isArray(data) ? data.length > 0 : typeof data === 'object', `${edge} answers data for the demo user: ${reply.text.slice(0, 200)}`);
      }
    }
  });

  it('lists in the table only edges the schema declares, each once', () => {
    const schema = graphSchema();
    const seen = new Set<string>();
    for (const entry of UNEMULATED_EDGES) {
      const type = schema.type(entry.type);
      assert.ok(type, entry.type);
      const key = `${entry.type}/${entry.edge}`;
      assert.ok(!seen.has(key), `${key} is listed once`);
      seen.add(key);
      assert.ok(PUBLISHED_VERSIONS.some((version) => schema.edge(type, entry.edge, version.name)), `${key} is an edge in some version`);
    }
  });

  it('answers an unemulated edge nested in fields as it answers its path', async () => {
    const reply = await get('/v2.4/me', { fields: 'name,adaccounts{id}' });
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body.error.code, 294);
    const mailbox = await get('/v2.3/me', { fields: 'inbox' });
    assert.equal(mailbox.status, 403, mailbox.text);
    assert.equal(mailbox.body.error.message, '(#298) Requires extended permission: read_mailbox');
    const empty = await get('/v2.4/me', { fields: 'name,apprequests' });
    assertOk(empty);
    assert.deepEqual(Object.keys(empty.body), ['name', 'id']);
  });

  it('lists liked pages by category with user_likes, and nothing without it', async () => {
    const categories: Record<string, string> = { books: 'Book', movies: 'Movie', music: 'Musician/Band', television: 'TV Show', games: 'Games/Toys' };
    const likes = await get('/v2.4/me/likes', { fields: 'category', limit: '100' });
    for (const [edge, category] of Object.entries(categories)) {
      const reply = await get(`/v2.4/me/${edge}`, { fields: 'name,category' });
      assertOk(reply);
      assert.ok(reply.body.data.length >= 2, `${edge}: ${reply.text}`);
      for (const page of reply.body.data) {
        assert.deepEqual(Object.keys(page), ['name', 'category', 'id']);
        assert.equal(page.category, category);
      }
      const liked = likes.body.data.filter((page: { category: string }) => page.category === category).map((page: { id: string }) => page.id);
      assert.deepEqual(reply.body.data.map((page: { id: string }) => page.id).sort(), liked.sort(), `${edge} lists every liked ${category} page`);
      const plain = await get(`/v2.4/me/${edge}`);
      assert.deepEqual(Object.keys(plain.body.data[0]), ['name', 'id']);
      assert.equal((await get(`/v2.4/me/${edge}`, {}, bareToken)).text, '{"data":[]}');
    }
  });

  it('names when each page was liked up to v2.3, by default and when asked, and not from v2.4', async () => {
    const old = await get('/v2.0/me/likes', { limit: '3' });
    assertOk(old);
    assert.equal(old.body.data.length, 3);
    for (const page of old.body.data) assert.match(page.created_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    // Newest like first, so the times never rise down the list.
    const times = old.body.data.map((page: { created_time: string }) => page.created_time);
    assert.deepEqual([...times].sort().reverse(), times);
    const asked = await get('/v2.3/me/likes', { limit: '1', fields: 'created_time' });
    assert.deepEqual(asked.body.data, [{ id: old.body.data[0].id, created_time: times[0] }]);
    assert.equal((await get('/v2.4/me/likes', { limit: '1', fields: 'created_time' })).status, 400, 'a page has no created_time in the v2.4 dialect');
    assert.equal((await get('/v2.4/me/likes', { limit: '1' })).body.data[0].created_time, undefined);
  });

  it('lists relatives with their relationship with user_relationships, and nothing without it', async () => {
    const reply = await get('/v2.4/me/family');
    assertOk(reply);
    assert.equal(reply.body.data.length, 3);
    for (const relative of reply.body.data) {
      assert.deepEqual(Object.keys(relative), ['name', 'relationship', 'id']);
      assert.match(relative.relationship, /^(brother|sister|cousin|mother|father|son|daughter|aunt|uncle|niece|nephew)$/);
    }
    const named = await get('/v2.4/me/family', { fields: 'first_name' });
    assert.deepEqual(Object.keys(named.body.data[0]), ['first_name', 'id']);
    const both = await get('/v2.4/me', { fields: 'family.limit(1){relationship,name}' });
    assert.deepEqual(Object.keys(both.body.family.data[0]), ['name', 'relationship', 'id']);
    assert.equal((await get('/v2.4/me/family', {}, bareToken)).text, '{"data":[]}');
  });

  it('lists friend lists and their members with read_custom_friendlists, shown to their owner only', async () => {
    const reply = await get('/v2.4/me/friendlists', { fields: 'name,list_type,owner,members.limit(3){name}' });
    assertOk(reply);
    assert.deepEqual(reply.body.data.map((list: { list_type: string }) => list.list_type).sort(), ['acquaintances', 'close_friends', 'user_created']);
    const me = (await get('/v2.4/me', { fields: 'id' })).body.id;
    for (const list of reply.body.data) {
      assert.deepEqual(Object.keys(list), ['name', 'list_type', 'owner', 'members', 'id']);
      assert.equal(list.owner.id, me);
      assert.ok(list.members.data.length >= 1 && list.members.data.length <= 3);
    }
    const listId = reply.body.data[0].id;
    const node = await get(`/v2.4/${listId}`, { metadata: '1' });
    assertOk(node);
    assert.equal(node.body.metadata.type, 'friendlist');
    assert.deepEqual(Object.keys(node.body.metadata.connections), ['members']);
    assert.deepEqual(node.body.metadata.fields.map((field: { name: string }) => field.name), ['id', 'name', 'list_type', 'owner']);
    assert.deepEqual(Object.keys(node.body).filter((key) => key !== 'metadata'), ['name', 'list_type', 'id']);
    const members = await get(`/v2.4/${listId}/members`);
    assert.ok(members.body.data.length >= 3);
    assert.equal((await get('/v2.4/me/friendlists', {}, bareToken)).text, '{"data":[]}');
    // Up to v2.2, read_friendlists reads them.
    await store.updateGrants(appId, demoUserId, [{ scope: 'read_friendlists', status: 'granted' }]);
    const older = await tokenWith(['public_profile', 'read_friendlists']);
    assert.equal((await get('/v2.2/me/friendlists', {}, older)).body.data.length, 3);
    assert.equal((await get('/v2.3/me/friendlists', {}, older)).text, '{"data":[]}');
    assert.equal((await get(`/v2.4/${listId}/members`, {}, bareToken)).text, '{"data":[]}');
    assert.deepEqual(Object.keys((await get(`/v2.4/${listId}`, { fields: 'name,list_type' }, bareToken)).body), ['id'], 'nothing but its id');
    // Another person never sees the list, whatever they granted.
    const other = demoUserId + 1;
    assert.equal((await store.getObjects([other])).get(other)?.type, 'user');
    await store.setGrants(appId, [{ userId: other, grants: DEMO_SCOPES.map((scope) => ({ scope, status: 'granted' as const })) }]);
    const otherToken = (await issueUserToken(store, { appId, userId: other, scopes: DEMO_SCOPES, expiresIn: 3600, now })).accessToken;
    const hidden = await get(`/v2.4/${listId}`, {}, otherToken);
    assert.equal(hidden.status, 400, hidden.text);
    assert.equal(hidden.body.error.code, 100);
  });

  it('lists posts tagging the person with user_posts, and nothing without it', async () => {
    const reply = await get('/v2.4/me/tagged', { fields: 'message,from,created_time' });
    assertOk(reply);
    assert.ok(reply.body.data.length >= 1, reply.text);
    const me = (await get('/v2.4/me', { fields: 'id' })).body.id;
    assert.ok(reply.body.data.some((post: { from: { id: string } }) => post.from.id !== me), 'friends tagged her');
    assert.equal((await get('/v2.4/me/tagged', {}, bareToken)).text, '{"data":[]}');
  });

  it('lists tagged places and check-ins with user_tagged_places, and nothing without it', async () => {
    const places = await get('/v2.4/me/tagged_places');
    assertOk(places);
    assert.ok(places.body.data.length >= 4, places.text);
    for (const tag of places.body.data) {
      assert.deepEqual(Object.keys(tag), ['id', 'created_time', 'place']);
      assert.equal(typeof tag.place.name, 'string');
      assert.equal(typeof tag.place.location.city, 'string');
    }
    const checkins = await get('/v2.4/me/checkins', { fields: 'message,place' });
    assert.deepEqual(checkins.body.data.map((post: { id: string }) => post.id), places.body.data.map((tag: { id: string }) => tag.id));
    assert.ok(checkins.body.data.every((post: { place?: unknown; message?: string }) => post.place && post.message));
    for (const edge of ['tagged_places', 'checkins']) assert.equal((await get(`/v2.4/me/${edge}`, {}, bareToken)).text, '{"data":[]}');
  });

  it('writes a post with a place and tags: it joins the tagged places of its author and the tagged, and their tagged posts', async () => {
    const place = (await get('/v2.4/me/tagged_places', { limit: '1' })).body.data[0].place;
    const [friendId] = (await store.getPages({ type: 'friends', id1s: [demoUserId], limit: 100, id2GrantedTo: { appId, scope: 'public_profile' } })).get(demoUserId)!.map((row) => row.id2);
    assert.ok(friendId !== undefined);
    await store.updateGrants(appId, friendId, [{ scope: 'user_posts', status: 'granted' }, { scope: 'user_tagged_places', status: 'granted' }]);
    const friendToken = (await issueUserToken(store, { appId, userId: friendId, scopes: ['public_profile', 'user_posts', 'user_tagged_places'], expiresIn: 3600, now })).accessToken;
    const friendScoped = (await get('/v2.4/me', { fields: 'id' }, friendToken)).body.id;

    const written = await server.form('/v2.4/me/feed', { access_token: token, message: 'Here with a friend', place: place.id, tags: friendScoped, fields: 'message,place' });
    assertOk(written);
    assert.deepEqual(written.body.place, place);
    const mine = await get('/v2.4/me/checkins', { limit: '1', fields: 'message' });
    assert.equal(mine.body.data[0].id, written.body.id);
    const theirs = await get('/v2.4/me/tagged', { limit: '1', fields: 'message' }, friendToken);
    assert.equal(theirs.body.data[0].id, written.body.id);
    const theirPlaces = await get('/v2.4/me/tagged_places', { limit: '1' }, friendToken);
    assert.deepEqual(theirPlaces.body.data[0].place, place);

    const refused = async (fields: Record<string, string>, message: RegExp) => {
      const reply = await server.form('/v2.4/me/feed', { access_token: token, message: 'x', ...fields });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body.error.code, 100);
      assert.match(reply.body.error.message, message);
    };
    await refused({ tags: friendScoped }, /only be given together with a place/);
    await refused({ place: friendScoped }, /Invalid place/);
    await refused({ place: place.id, tags: 'nobody' }, /unknown person/);
    const stranger = (await get('/v2.4/me/friendrequests')).body.data[0].from.id;
    await refused({ place: place.id, tags: stranger }, /Only friends can be tagged/);
  });

  it('lists every friend to tag under a stable, app-scoped tag token with user_friends, and nothing without it', async () => {
    const friends = await get('/v2.4/me/friends', { limit: '500' });
    const reply = await get('/v2.4/me/taggable_friends', { limit: '500' });
    assertOk(reply);
    assert.equal(reply.body.data.length, friends.body.summary.total_count, 'app users and others alike');
    assert.ok(reply.body.data.length > friends.body.data.length);
    const appScoped = new Set(friends.body.data.map((friend: { id: string }) => friend.id));
    for (const friend of reply.body.data) {
      assert.deepEqual(Object.keys(friend), ['id', 'name', 'picture']);
      assert.match(friend.id, /^Aa[A-Za-z0-9_-]{43}$/);
      assert.ok(!appScoped.has(friend.id));
      assert.equal(typeof friend.picture.data.url, 'string');
    }
    const again = await get('/v2.4/me/taggable_friends', { limit: '500' });
    assert.deepEqual(again.body.data.map((friend: { id: string }) => friend.id), reply.body.data.map((friend: { id: string }) => friend.id));
    const other = await registerApp(store, { name: 'Other', now });
    await store.setGrants(other.id, [{ userId: demoUserId, grants: [{ scope: 'public_profile', status: 'granted' }, { scope: 'user_friends', status: 'granted' }] }]);
    const otherTokens = await get('/v2.4/me/taggable_friends', { limit: '500' }, await tokenWith(['public_profile', 'user_friends'], other.id));
    const otherIds = new Set(otherTokens.body.data.map((friend: { id: string }) => friend.id));
    assert.equal(otherIds.size, reply.body.data.length);
    assert.ok(reply.body.data.every((friend: { id: string }) => !otherIds.has(friend.id)), 'another app gets other tokens');
    const paged = await get('/v2.4/me/taggable_friends', { limit: '2' });
    assert.equal(paged.body.data.length, 2);
    assert.ok(paged.body.paging.cursors.after);
    assert.equal((await get('/v2.4/me/taggable_friends', {}, bareToken)).text, '{"data":[]}');
    // Only the person themselves lists whom they may tag.
    const friend = friends.body.data[0].id;
    assert.equal((await get(`/v2.4/${friend}/taggable_friends`)).text, '{"data":[]}');
  });

  it('reads friend lists, members, relatives, tag tokens, place tags and the news feed nested with one store call per level, however many items', async () => {
    const { store: counted, calls } = countingStore(store);
    const countingServer = await startServer(counted);
    try {
      await countingServer.get('/v2.3/me', { access_token: token, fields: 'id' });
      calls.length = 0;
      const fields =
        'friendlists{name,owner{name},members.limit(8){name,picture}},family{relationship,name},' +
        'taggable_friends.limit(25){name},tagged_places.limit(5){place},home.limit(20){from{name}}';
      const reply = await countingServer.get('/v2.3/me', { access_token: token, fields });
      assertOk(reply);
      const body = reply.body;
      const members = body.friendlists.data.flatMap((list: { members: { data: unknown[] } }) => list.members.data);
      const items = body.friendlists.data.length + members.length + body.family.data.length + body.taggable_friends.data.length +
        body.tagged_places.data.length + body.home.data.length;
      assert.ok(items >= 60, `${items} items`);
      assert.equal(body.home.data.length, 20, 'the news feed page is full');
      // One page query for each of the six edges, and one more that fills the news feed's page
      // past the posts of her friends she may not see, in one round.
      assert.equal(calls.filter((call) => call === 'getPagesWithObjects').length, 7, calls.join(', '));
      // Besides the pages: the nodes of each level, the use of the app of the people each level
      // shows (one read per level), and the change channel of cached tokens and shared state.
      assert.ok(calls.length <= 18, `store calls: ${calls.join(', ')}`);
    } finally {
      await countingServer.close();
    }
  });

  it('answers the news feed in v2.3: her posts and her friends\', newest first, time-bounded, with user_posts or read_stream', async () => {
    const me = (await get('/v2.3/me', { fields: 'id' })).body.id;
    const reply = await get('/v2.3/me/home', { fields: 'from,created_time', limit: '100' });
    assertOk(reply);
    const posts: Array<{ from: { id: string }; created_time: string; id: string }> = reply.body.data;
    assert.ok(posts.length > 30, `${posts.length} posts`);
    assert.ok(posts.some((post) => post.from.id === me));
    assert.ok(posts.some((post) => post.from.id !== me));
    const times = posts.map((post) => post.created_time);
    assert.deepEqual([...times].sort().reverse(), times);
    // A page passes over the posts among its rows the viewer may not see, and is filled from those beyond, as every edge's is.
    const ids = (reply: Reply): string[] => reply.body.data.map((post: { id: string }) => post.id);
    const page = await get('/v2.3/me/home', { fields: 'created_time', limit: '5' });
    assert.deepEqual(ids(page), posts.slice(0, 5).map((post) => post.id));
    const next = await server.fetch(page.body.paging.next);
    assert.deepEqual(ids(next), posts.slice(5, 10).map((post) => post.id));
    const until = Math.floor(Date.parse(posts[10]!.created_time) / 1000);
    const older = await get('/v2.3/me/home', { fields: 'created_time', limit: '3', until: String(until) });
    assert.ok(older.body.data.every((post: { created_time: string }) => Date.parse(post.created_time) / 1000 <= until));
    assert.equal((await get('/v2.3/me/home', {}, bareToken)).text, '{"data":[]}');
    const readStream = await tokenWith(['public_profile', 'read_stream']);
    await store.updateGrants(appId, demoUserId, [{ scope: 'read_stream', status: 'granted' }]);
    const streamed = await get('/v2.3/me/home', { limit: '3' }, readStream);
    assert.ok(streamed.body.data.length >= 1, streamed.text);
  });
});
