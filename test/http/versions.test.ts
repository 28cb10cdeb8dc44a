import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { Clock } from '../../src/clock/clock.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { PUBLISHED_VERSIONS, rules, VERSION_RULES, type RuleName } from '../../src/schema/versions.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';

const SUCCESS = '{"success":true}';

/**
 * Each rule of the versions table, asked at the last version before it changes and the first
 * after. The list below names the versions each test uses, so a rule moved in the table without
 * its test failing here is caught by the first test.
 */
const BOUNDARIES: Record<RuleName, [string, string]> = {
  'boolean-result-object': ['v2.0', 'v2.1'],
  'token-endpoint-json': ['v2.2', 'v2.3'],
  'minimal-default-fields': ['v2.3', 'v2.4'],
  'likes-summary-can-like': ['v2.3', 'v2.4'],
  'offset-paging': ['v2.2', 'v2.3'],
  'post-attachments': ['v2.2', 'v2.3'],
  'user-statuses-links': ['v2.3', 'v2.4'],
  'page-likes-count': ['v2.5', 'v2.6'],
  'page-fan-count': ['v2.5', 'v2.6'],
  'cover-photo-id': ['v2.3', 'v2.4'],
  'cover-photo-node-id': ['v2.2', 'v2.3'],
  'news-feed-and-mailbox': ['v2.3', 'v2.4'],
  'event-location-venue': ['v2.2', 'v2.3'],
  'event-place': ['v2.2', 'v2.3'],
  'early-graph-fields': ['v2.3', 'v2.4'],
  'privacy-lists': ['v2.3', 'v2.4'],
  'time-paging': ['v2.2', 'v2.3'],
  'comments-summary-can-comment': ['v2.3', 'v2.4'],
  'debug-token-type': ['v2.3', 'v2.4'],
  'unknown-object-subcode': ['v2.3', 'v2.4'],
  'video-status-fields': ['v2.3', 'v2.4'],
  'event-privacy-default': ['v2.2', 'v2.3'],
  'comment-hiding': ['v2.1', 'v2.2'],
};

describe('API versions over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  let appToken: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
  });

  function assertError(reply: Reply, status: number, code: number, message: string | RegExp) {
    assert.equal(reply.status, status, reply.text);
    assert.equal(reply.body.error.code, code, reply.text);
    if (typeof message === 'string') assert.equal(reply.body.error.message, message);
    else assert.match(reply.body.error.message, message);
  }

  const createTestUser = (version: string, permissions: string) =>
    server.form(`/${version}/${fixture.app.id}/accounts/test-users`, { access_token: appToken, permissions });

  it('tests every rule of the table at the versions where it changes', () => {
    assert.deepEqual(Object.keys(BOUNDARIES).sort(), Object.keys(VERSION_RULES).sort());
    for (const [name, [before, after]] of Object.entries(BOUNDARIES) as Array<[RuleName, [string, string]]>) {
      const had = rules.has(name, before as never);
      assert.equal(rules.has(name, after as never), !had, `${name} changes between ${before} and ${after}`);
    }
  });

  it('names the version that answered in facebook-api-version', async () => {
    for (const version of ['v2.0', 'v2.3', 'v2.4', 'v2.12', 'v3.0', 'v27.0']) {
      const reply = await server.get(`/${version}/me`, { access_token: token });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.headers.get('facebook-api-version'), version);
    }
    const unversioned = await server.get('/me', { access_token: token });
    assert.equal(unversioned.headers.get('facebook-api-version'), 'v2.4');
  });

  it('answers a version that was never published with the unknown path error', async () => {
    for (const [path, rest] of [['/v9.9/me', '/me'], ['/v2.80/me/feed', '/me/feed'], ['/v2.13/me', '/me']]) {
      const reply = await server.get(path!, { access_token: token });
      assertError(reply, 400, 2500, `Unknown path components: ${rest}`);
      assert.equal(reply.body.error.type, 'OAuthException');
    }
    const tokenEndpoint = await server.get('/v9.9/oauth/access_token', { grant_type: 'client_credentials' });
    assertError(tokenEndpoint, 400, 2500, 'Unknown path components: /oauth/access_token');
  });

  it('boolean-result-object: a bare true in v2.0, {"success":true} from v2.1, never a bare false', async () => {
    const post = fixture.postId(fixture.posts.quiet, fixture.users.alice);
    const liked = await server.form(`/v2.0/${post}/likes`, { access_token: token });
    assert.equal(liked.status, 200, liked.text);
    assert.equal(liked.text, 'true');
    const unliked = await server.form(`/v2.1/${post}/likes`, { access_token: token }, 'DELETE');
    assert.equal(unliked.text, SUCCESS);
    const again = await server.form(`/v2.0/${post}/likes`, { access_token: token }, 'DELETE');
    assert.equal(again.text, 'true', 'unliking what is not liked still answers true');
  });

  it('token-endpoint-json: form-encoded up to v2.2, JSON from v2.3, for client credentials and long-lived exchange', async () => {
    const client = { client_id: String(fixture.app.id), client_secret: fixture.app.secret };
    const old = await server.get('/v2.2/oauth/access_token', { ...client, grant_type: 'client_credentials' });
    assert.equal(old.status, 200, old.text);
    assert.equal(old.headers.get('content-type'), 'text/plain; charset=UTF-8');
    assert.equal(old.text, `access_token=${fixture.app.id}|${fixture.app.secret}`);
    const current = await server.get('/v2.3/oauth/access_token', { ...client, grant_type: 'client_credentials' });
    assert.deepEqual(current.body, { access_token: `${fixture.app.id}|${fixture.app.secret}`, token_type: 'bearer' });

    const exchange = { ...client, grant_type: 'fb_exchange_token', fb_exchange_token: token };
    const oldLong = await server.get('/v2.2/oauth/access_token', exchange);
    const parsed = new URLSearchParams(oldLong.text);
    assert.deepEqual([...parsed.keys()], ['access_token', 'expires']);
    assert.equal(parsed.get('expires'), '5184000');
    const me = await server.get('/v2.4/me', { access_token: parsed.get('access_token')!, fields: 'id' });
    assert.equal(me.status, 200, 'the form-encoded token works');
    const newLong = await server.get('/v2.3/oauth/access_token', exchange);
    assert.deepEqual(Object.keys(newLong.body), ['access_token', 'token_type', 'expires_in']);
  });

  it('minimal-default-fields: rich default fields in v2.3, name and id from v2.4', async () => {
    const alice = fixture.scoped(fixture.users.alice);
    const rich = await server.get('/v2.3/me', { access_token: token });
    assert.deepEqual(Object.keys(rich.body), ['id', 'birthday', 'email', 'first_name', 'gender', 'last_name', 'link', 'locale', 'name', 'updated_time']);
    assert.equal(rich.body.id, alice);
    const minimal = await server.get('/v2.4/me', { access_token: token });
    assert.equal(minimal.text, `{"name":"Alice Arden","id":"${alice}"}`);

    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const richPost = await server.get(`/v2.3/${post}`, { access_token: token });
    assert.deepEqual(Object.keys(richPost.body).slice(0, 2), ['id', 'from']);
    assert.deepEqual(Object.keys(richPost.body.from), ['name', 'id'], 'people inside an answer keep the minimal set');
    assert.ok(richPost.body.likes.data.length > 0, 'a v2.3 post shows its likes');
    assert.deepEqual(Object.keys(richPost.body.likes.data[0]), ['name', 'id']);
    const minimalPost = await server.get(`/v2.4/${post}`, { access_token: token });
    assert.deepEqual(Object.keys(minimalPost.body), ['message', 'created_time', 'id']);

    const photo = await server.get(`/v2.3/${fixture.photos[0]}`, { access_token: token });
    assert.deepEqual(Object.keys(photo.body).slice(0, 3), ['id', 'from', 'name']);
    assert.ok('width' in photo.body && !('album' in photo.body), 'a photo names its album only when asked');
    assert.deepEqual(Object.keys((await server.get(`/v2.4/${fixture.photos[0]}`, { access_token: token })).body), ['created_time', 'name', 'id']);

    const album = await server.get(`/v2.3/${fixture.album}`, { access_token: token });
    assert.deepEqual(Object.keys(album.body).slice(0, 3), ['id', 'from', 'name']);
    assert.ok('privacy' in album.body && 'type' in album.body && !('cover_photo' in album.body));
    assert.deepEqual(Object.keys((await server.get(`/v2.4/${fixture.album}`, { access_token: token })).body), ['created_time', 'name', 'id']);

    const page = await server.get(`/v2.3/${fixture.pages[0]}`, { access_token: token });
    // A page's fan counts and flags are there whatever it holds, as the real v2.0 page answer had them.
    assert.deepEqual(Object.keys(page.body), ['id', 'can_post', 'category', 'checkins', 'has_added_app', 'is_community_page', 'is_published', 'likes', 'link', 'name', 'talking_about_count', 'were_here_count']);
    assert.deepEqual(Object.keys((await server.get(`/v2.4/${fixture.pages[0]}`, { access_token: token })).body), ['name', 'id']);

    const commented = await server.form(`/v2.4/${post}/comments`, { access_token: token, message: 'Versions' });
    const comment = await server.get(`/v2.3/${commented.body.id}`, { access_token: token });
    assert.deepEqual(Object.keys(comment.body), ['id', 'from', 'message', 'can_remove', 'created_time', 'like_count', 'user_likes']);
    const minimalComment = await server.get(`/v2.4/${commented.body.id}`, { access_token: token });
    assert.deepEqual(Object.keys(minimalComment.body), ['created_time', 'from', 'message', 'id']);
  });

  it('likes-summary-can-like: total_count alone in v2.3, with can_like and has_liked from v2.4', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const old = await server.get(`/v2.3/${post}/likes`, { access_token: token, summary: 'true', limit: '0' });
    assert.equal(old.text, '{"data":[],"summary":{"total_count":1000}}');
    const current = await server.get(`/v2.4/${post}/likes`, { access_token: token, summary: 'true', limit: '0' });
    assert.equal(current.text, '{"data":[],"summary":{"total_count":1000,"can_like":true,"has_liked":false}}');
  });

  it('offset-paging: offset links with __after_id in v2.2, cursors from v2.3', async () => {
    const first = await server.get('/v2.2/me/friends', { access_token: token, limit: '2' });
    assert.equal(first.body.data.length, 2);
    assert.deepEqual(Object.keys(first.body.paging), ['next']);
    const next = new URL(first.body.paging.next);
    assert.equal(next.pathname, `/v2.2/${fixture.scoped(fixture.users.alice)}/friends`);
    assert.deepEqual([...next.searchParams.keys()], ['access_token', 'limit', 'offset', '__after_id']);
    assert.equal(next.searchParams.get('offset'), '2');

    const second = await server.fetch(first.body.paging.next);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.data.length, 2);
    assert.notDeepEqual(second.body.data, first.body.data);
    assert.equal(new URL(second.body.paging.next).searchParams.get('offset'), '4');
    const previous = new URL(second.body.paging.previous);
    assert.equal(previous.searchParams.get('offset'), '0');
    assert.ok(previous.searchParams.get('__before_id'));
    const back = await server.fetch(second.body.paging.previous);
    assert.deepEqual(back.body.data, first.body.data);

    const current = await server.get('/v2.3/me/friends', { access_token: token, limit: '2' });
    assert.deepEqual(Object.keys(current.body.paging), ['cursors', 'next']);
    assert.deepEqual(current.body.data, first.body.data);
  });

  it('cover-photo-node-id: a page cover names its photo by cover_id alone up to v2.2, by id as well from v2.3, shown by default in v2.0', async () => {
    const photo = fixture.photos[0]!;
    const cover = { cover_id: photo, offset_x: 0, offset_y: 12, width: 851, height: 315 };
    const { results } = await fixture.store.write([
      { op: 'createObject', object: { type: 'page', owner: null, createdTime: fixture.now, updatedTime: fixture.now, data: { name: 'Covered', category: 'Community', cover } } },
    ]);
    const page = String(results[0]);
    const old = await server.get(`/v2.2/${page}`, { access_token: token, fields: 'cover' });
    assert.equal(old.status, 200, old.text);
    assert.deepEqual(Object.keys(old.body.cover), ['cover_id', 'offset_x', 'offset_y', 'source']);
    assert.equal(old.body.cover.cover_id, String(photo));
    assert.equal(old.body.cover.offset_y, 12);
    const current = await server.get(`/v2.3/${page}`, { access_token: token, fields: 'cover' });
    assert.deepEqual(current.body.cover, { ...old.body.cover, id: String(photo) });
    // Read without fields, v2.0 to v2.3 send it among the page's defaults; v2.4 only when asked.
    assert.deepEqual((await server.get(`/v2.0/${page}`, { access_token: token })).body.cover, old.body.cover);
    assert.equal((await server.get(`/v2.4/${page}`, { access_token: token })).body.cover, undefined);
  });

  it('privacy-lists: a post privacy carries friends, networks, allow and deny up to v2.3, only what was set from v2.4', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const old = await server.get(`/v2.3/${post}`, { access_token: token, fields: 'privacy' });
    assert.equal(old.status, 200, old.text);
    assert.deepEqual(Object.keys(old.body.privacy).slice(-4), ['friends', 'networks', 'allow', 'deny']);
    assert.equal(old.body.privacy.allow, '');
    const current = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'privacy' });
    assert.equal(current.body.privacy.allow, undefined);
    assert.equal(current.body.privacy.value, old.body.privacy.value);
  });

  it('time-paging: feeds page by until and since with __paging_token up to v2.2, by cursors from v2.3', async () => {
    const read = async (url: string) => {
      const reply = await fetch(url);
      assert.equal(reply.status, 200);
      return (await reply.json()) as { data: Array<{ id: string }>; paging?: { previous?: string; next?: string; cursors?: unknown } };
    };
    const whole = await server.get('/v2.3/me/feed', { access_token: token, fields: 'id', limit: '100' });
    const all = (whole.body.data as Array<{ id: string }>).map((post) => post.id);
    assert.ok(all.length >= 3, 'the fixture has a few posts');
    const parameters = (link: string) => [...new URL(link).searchParams.keys()].filter((name) => name !== 'access_token').sort();
    for (const version of ['v2.0', 'v2.2']) {
      const first = await server.get(`/${version}/me/feed`, { access_token: token, fields: 'id', limit: '2' });
      assert.equal(first.body.paging.cursors, undefined);
      assert.deepEqual(parameters(first.body.paging.next as string), ['__paging_token', 'fields', 'limit', 'until']);
      assert.deepEqual(parameters(first.body.paging.previous as string), ['__paging_token', '__previous', 'fields', 'limit', 'since']);
      // Followed to the end, the links list every post once, in order.
      const seen = first.body.data.map((post: { id: string }) => post.id);
      let link: string | undefined = first.body.paging.next;
      while (link) {
        const page = await read(link);
        seen.push(...page.data.map((post) => post.id));
        link = page.paging?.next;
      }
      assert.deepEqual(seen, all, version);
      const back = await read((await read(first.body.paging.next as string)).paging!.previous!);
      assert.deepEqual(back.data.map((post) => post.id), all.slice(0, 2), 'previous leads back to the first page');
    }
    const current = await server.get('/v2.3/me/feed', { access_token: token, fields: 'id', limit: '2' });
    assert.deepEqual(Object.keys(current.body.paging), ['cursors', 'next']);
  });

  it('comments-summary-can-comment, debug-token-type and unknown-object-subcode: added in v2.4', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const summary = async (version: string) => (await server.get(`/${version}/${post}/comments`, { access_token: token, summary: 'true', limit: '0' })).body.summary;
    assert.deepEqual(Object.keys(await summary('v2.3')), ['order', 'total_count']);
    assert.deepEqual(Object.keys(await summary('v2.4')), ['order', 'total_count', 'can_comment']);
    const debug = async (version: string, input: string) => (await server.get(`/${version}/debug_token`, { access_token: appToken, input_token: input })).body.data;
    const oldUser = await debug('v2.3', token);
    assert.equal(oldUser.type, undefined);
    assert.equal(oldUser.issued_at, undefined);
    assert.equal(oldUser.is_valid, true);
    const newUser = await debug('v2.4', token);
    assert.equal(newUser.type, 'USER');
    assert.equal(typeof newUser.issued_at, 'number');
    assert.deepEqual(await debug('v2.3', appToken), { app_id: String(fixture.app.id), is_valid: true });
    assert.deepEqual(await debug('v2.4', appToken), { app_id: String(fixture.app.id), type: 'APP', application: fixture.app.name, is_valid: true });
    const missing = async (version: string) => (await server.get(`/${version}/404404404404`, { access_token: token })).body.error;
    assert.equal((await missing('v2.3')).error_subcode, undefined);
    assert.equal((await missing('v2.3')).code, 100);
    assert.equal((await missing('v2.4')).error_subcode, 33);
  });

  it('post-attachments: no attachments edge in v2.2, one from v2.3 (and metadata=1 follows)', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    assertError(await server.get(`/v2.2/${post}/attachments`, { access_token: token }), 400, 2500, 'Unknown path components: /attachments');
    assertError(
      await server.get(`/v2.2/${post}`, { access_token: token, fields: 'attachments' }),
      400,
      100,
      '(#100) Tried accessing nonexisting field (attachments) on node type (Post)',
    );
    const current = await server.get(`/v2.3/${post}/attachments`, { access_token: token });
    assert.equal(current.status, 200, current.text);
    const oldMetadata = await server.get(`/v2.2/${post}`, { access_token: token, metadata: '1', fields: 'id' });
    assert.equal(oldMetadata.body.metadata.connections.attachments, undefined);
    const metadata = await server.get(`/v2.3/${post}`, { access_token: token, metadata: '1', fields: 'id' });
    assert.match(metadata.body.metadata.connections.attachments, /\/v2\.3\/.*\/attachments\?/);
  });

  it('user-statuses-links: statuses and links edges in v2.3, gone from v2.4 (and metadata=1 follows)', async () => {
    for (const edge of ['statuses', 'links']) {
      const old = await server.get(`/v2.3/me/${edge}`, { access_token: token });
      assert.equal(old.status, 200, old.text);
      assert.deepEqual(old.body, { data: [] });
      assertError(await server.get(`/v2.4/me/${edge}`, { access_token: token }), 400, 2500, `Unknown path components: /${edge}`);
    }
    const old = await server.get('/v2.3/me', { access_token: token, metadata: '1', fields: 'id' });
    assert.ok(old.body.metadata.connections.statuses);
    const current = await server.get('/v2.4/me', { access_token: token, metadata: '1', fields: 'id' });
    assert.equal(current.body.metadata.connections.statuses, undefined);
  });

  it('news-feed-and-mailbox: home, inbox, outbox and notifications answer in v2.3, deprecated (#12) from v2.4 though metadata=1 lists them', async () => {
    const home = await server.get('/v2.3/me/home', { access_token: token, fields: 'message' });
    assert.equal(home.status, 200, home.text);
    assert.ok(Array.isArray(home.body.data));
    for (const edge of ['home', 'inbox', 'outbox', 'notifications']) {
      const message = `(#12) ${edge} is deprecated for versions v2.4 and higher`;
      assertError(await server.get(`/v2.4/me/${edge}`, { access_token: token }), 400, 12, message);
      assertError(await server.get('/v2.5/me', { access_token: token, fields: `${edge}.limit(2)` }), 400, 12, message);
    }
    const old = await server.get('/v2.3/me', { access_token: token, metadata: '1', fields: 'id' });
    for (const edge of ['home', 'inbox', 'outbox', 'notifications']) assert.ok(old.body.metadata.connections[edge], edge);
    const current = await server.get('/v2.4/me', { access_token: token, metadata: '1', fields: 'id' });
    for (const edge of ['home', 'inbox', 'outbox', 'notifications']) assert.ok(current.body.metadata.connections[edge], edge);
  });

  it('each permission of the catalogue is offered from its since and refused from its until, at the boundary versions', async () => {
    const served = PUBLISHED_VERSIONS.map((version) => version.name);
    const boundaries = graphSchema().permissions.list.flatMap(({ name, versions }) => {
      const { since, until } = typeof versions === 'object' ? versions : {};
      return [since, until].filter((bound) => bound !== undefined && served.indexOf(bound) > 0).map((bound) => ({ name, bound: bound!, offeredFrom: bound === since }));
    });
    assert.ok(boundaries.length >= 10, 'read_stream, user_posts and the others that changed within v2.x');
    for (const { name, bound, offeredFrom } of boundaries) {
      const last = served[served.indexOf(bound) - 1]!;
      const [offered, refused] = offeredFrom ? [bound, last] : [last, bound];
      const made = await createTestUser(offered, name);
      assert.equal(made.status, 200, `${name} in ${offered}: ${made.text}`);
      const granted = await server.get(`/${offered}/me/permissions`, { access_token: made.body.access_token });
      assert.ok(granted.body.data.some((entry: { permission: string }) => entry.permission === name), name);
      assertError(await createTestUser(refused, name), 400, 100, `(#100) Invalid permission: ${name}`);
    }
  });

  it('the sign-in dialog offers the permissions of its version', async () => {
    const ask = (version: string) =>
      server.get(`/${version}/dialog/oauth`, { client_id: String(fixture.app.id), redirect_uri: 'https://app.example/cb', scope: 'read_stream' });
    assert.equal((await ask('v2.3')).status, 200);
    const refused = await ask('v2.4');
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Invalid Scopes: read_stream/);
  });

  it('read_stream reads feeds up to v2.3, as user_posts does; from v2.4 it reads nothing', async () => {
    const user = await createTestUser('v2.3', 'read_stream,publish_actions');
    const posted = await server.form('/v2.3/me/feed', { access_token: user.body.access_token, message: 'Old times' });
    assert.equal(posted.status, 200, posted.text);
    const old = await server.get('/v2.3/me/feed', { access_token: user.body.access_token });
    assert.deepEqual(old.body.data.map((post: { id: string }) => post.id), [posted.body.id]);
    const current = await server.get('/v2.4/me/feed', { access_token: user.body.access_token });
    assert.deepEqual(current.body, { data: [] });
  });

  it('unversioned calls answer in the token app default version; another app token gets the server default', async () => {
    const legacy = await registerApp(fixture.store, { name: 'Legacy App', apiVersion: 'v2.0', now: fixture.now });
    await fixture.store.setGrants(legacy.id, [{ userId: fixture.users.alice, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
    const { accessToken } = await issueUserToken(fixture.store, {
      appId: legacy.id,
      userId: fixture.users.alice,
      scopes: ['public_profile', 'publish_actions'],
      expiresIn: 3600,
      now: fixture.now,
    });
    const old = await server.get('/me', { access_token: accessToken });
    assert.equal(old.headers.get('facebook-api-version'), 'v2.0');
    assert.equal(old.body.id, scopedIdsFor(legacy).scope(fixture.users.alice));
    assert.deepEqual(Object.keys(old.body).slice(0, 2), ['id', 'first_name']);
    const pinned = await server.get('/v2.4/me', { access_token: accessToken });
    assert.deepEqual(Object.keys(pinned.body), ['name', 'id'], 'a version in the path wins over the app default');

    const current = await server.get('/me', { access_token: token });
    assert.equal(current.headers.get('facebook-api-version'), 'v2.4');
    assert.deepEqual(Object.keys(current.body), ['name', 'id']);

    const tokenAnswer = await server.get('/oauth/access_token', {
      client_id: String(legacy.id),
      client_secret: legacy.secret,
      grant_type: 'client_credentials',
    });
    assert.equal(tokenAnswer.text, `access_token=${legacy.id}|${legacy.secret}`, 'the token endpoint follows the client app default');
  });

  it('batch operations answer in the batch version unless their relative_url names one; ids= follows the request version', async () => {
    const post = fixture.postId(fixture.posts.quiet, fixture.users.alice);
    const batch = JSON.stringify([
      { method: 'POST', relative_url: `${post}/likes` },
      { method: 'DELETE', relative_url: `v2.4/${post}/likes` },
      { method: 'GET', relative_url: 'me' },
    ]);
    const reply = await server.form('/v2.0/', { access_token: token, batch });
    assert.equal(reply.status, 200, reply.text);
    const [liked, unliked, me] = reply.body;
    assert.equal(liked.body, 'true');
    assert.equal(unliked.body, SUCCESS);
    assert.deepEqual(Object.keys(JSON.parse(me.body)).filter((key) => key === 'id' || key === 'email'), ['id', 'email']);
    const versionOf = (item: { headers: { name: string; value: string }[] }) => item.headers.find((header) => header.name === 'Facebook-API-Version')?.value;
    assert.deepEqual([liked, unliked, me].map(versionOf), ['v2.0', 'v2.4', 'v2.0']);

    const alice = fixture.scoped(fixture.users.alice);
    const ids = await server.get('/v2.3/', { access_token: token, ids: `me,${fixture.pages[0]}` });
    assert.deepEqual(Object.keys(ids.body.me).filter((key) => key === 'id' || key === 'email'), ['id', 'email']);
    assert.equal(ids.body.me.id, alice);
    assert.deepEqual(Object.keys(ids.body[String(fixture.pages[0])]).slice(0, 3), ['id', 'can_post', 'category']);
    const current = await server.get('/v2.4/', { access_token: token, ids: 'me' });
    assert.deepEqual(Object.keys(current.body.me), ['name', 'id']);
  });

  it('a server started with another default version answers unversioned calls without an app version in it', async () => {
    const old = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), defaultVersion: 'v2.0' });
    try {
      const anonymous = await old.get('/me');
      assert.equal(anonymous.status, 400);
      assert.equal(anonymous.headers.get('facebook-api-version'), 'v2.0');
      const me = await old.get('/me', { access_token: token });
      assert.equal(me.headers.get('facebook-api-version'), 'v2.0');
      assert.deepEqual(Object.keys(me.body).filter((key) => key === 'id' || key === 'email'), ['id', 'email']);
      const client = { client_id: String(fixture.app.id), client_secret: fixture.app.secret, grant_type: 'client_credentials' };
      assert.equal((await old.get('/oauth/access_token', client)).text, `access_token=${fixture.app.id}|${fixture.app.secret}`);
      assert.deepEqual(Object.keys((await old.get('/v2.4/me', { access_token: token })).body), ['name', 'id']);
    } finally {
      await old.close();
    }
  });

  it('facebook-sdk 3.x paths (/v2.7/ … /v3.1/) answer in the v2.4 dialect', async () => {
    const post = fixture.postId(fixture.posts.quiet, fixture.users.alice);
    const expectedMe = (await server.get('/v2.4/me', { access_token: token })).text;
    const expectedFeed = (await server.get('/v2.4/me/feed', { access_token: token, limit: '2' })).body;
    const client = { client_id: String(fixture.app.id), client_secret: fixture.app.secret, grant_type: 'client_credentials' };
    for (const version of ['v2.7', 'v2.8', 'v2.9', 'v2.10', 'v2.11', 'v2.12', 'v3.0', 'v3.1']) {
      const me = await server.get(`/${version}/me`, { access_token: token });
      assert.equal(me.text, expectedMe, `${version} get_object`);
      assert.equal(me.headers.get('facebook-api-version'), version);
      const feed = await server.get(`/${version}/me/feed`, { access_token: token, limit: '2' });
      assert.deepEqual(feed.body.data, expectedFeed.data, `${version} get_connections`);
      assert.ok(feed.body.paging.next.includes(`/${version}/`), 'paging links keep the version');
      assert.equal((await server.form(`/${version}/${post}/likes`, { access_token: token })).text, SUCCESS, `${version} put_like`);
      assert.equal((await server.form(`/${version}/${post}/likes`, { access_token: token }, 'DELETE')).text, SUCCESS, `${version} delete`);
      const likes = await server.get(`/${version}/${post}/likes`, { access_token: token, summary: 'true', limit: '0' });
      assert.deepEqual(Object.keys(likes.body.summary), ['total_count', 'can_like', 'has_liked']);
      const appToken = await server.get(`/${version}/oauth/access_token`, client);
      assert.equal(appToken.body.token_type, 'bearer', `${version} get_app_access_token`);
      const debug = await server.get(`/${version}/debug_token`, { access_token: appToken.body.access_token, input_token: token });
      assert.equal(debug.body.data.is_valid, true, `${version} debug_access_token`);
      assert.equal(debug.headers.get('facebook-api-version'), version);
    }
  });
});
