import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import { countingStore } from '../helpers/counting-store.js';
import { buildFixture, NOW, type Fixture } from '../helpers/fixture.js';
import { addPageGraph, PAGE_DATA } from '../helpers/page-graph.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PAGE_FIELDS_V24 = [
  'id', 'access_token', 'about', 'category', 'category_list', 'checkins', 'cover', 'description', 'hours', 'is_published', 'likes', 'link',
  'location', 'name', 'phone', 'talking_about_count', 'username', 'website', 'were_here_count',
];
const PAGE_EDGES_V24 = ['albums', 'events', 'feed', 'milestones', 'photos', 'picture', 'posts', 'tagged', 'videos'];

describe('pages that act', () => {
  let fixture: Fixture;
  let server: TestServer;
  let calls: string[];
  let page: number;
  let bobsPage: number;
  let linkPost: number;
  let alice: number;
  let bob: number;

  before(async () => {
    fixture = await buildFixture();
    const counting = countingStore(fixture.store);
    calls = counting.calls;
    server = await startServer(counting.store, { clock: Clock.frozenAt(NOW) });
    ({ alice, bob } = fixture.users);
    ({ page, bobsPage, linkPost } = await addPageGraph(fixture));
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  const get = (path: string, params: Record<string, string>) => server.get(path, params);
  const accountsOf = async (token: string) => (await get('/v2.4/me/accounts', { access_token: token })).body;
  async function pageToken(): Promise<string> {
    const accounts = await accountsOf(fixture.aliceToken);
    return accounts.data.find((item: any) => item.id === String(page)).access_token;
  }

  it('reads the page node with its v2.4 fields, likes as the fan count', async () => {
    const reply = await get(`/v2.4/${page}`, { access_token: fixture.aliceToken, fields: PAGE_FIELDS_V24.filter((name) => !['id', 'access_token'].includes(name)).join(',') });
    assert.equal(reply.status, 200, reply.text);
    const { id, link, likes, ...rest } = reply.body;
    assert.equal(id, String(page));
    assert.equal(likes, 2);
    assert.equal(link, 'https://www.facebook.com/harborlightbakery');
    const { name, ...expected } = PAGE_DATA;
    assert.deepEqual(rest, { ...expected, name });
    // A page is public: an app token, and a person who granted nothing more, read it alike.
    const asApp = await get(`/v2.4/${page}`, { access_token: `${fixture.app.id}|${fixture.app.secret}`, fields: 'name,likes,access_token' });
    assert.deepEqual(asApp.body, { name: 'Harbor Light Bakery', likes: 2, id: String(page) });
    const daveToken = await fixture.tokenFor(fixture.users.dave, ['public_profile']);
    const asDave = await get(`/v2.4/${page}`, { access_token: daveToken, fields: 'about,phone' });
    assert.deepEqual(asDave.body, { about: PAGE_DATA.about, phone: PAGE_DATA.phone, id: String(page) });
  });

  it('has fan_count only from v2.6, where likes lists the pages the page likes', async () => {
    const v24 = await get(`/v2.4/${page}`, { access_token: fixture.aliceToken, fields: 'fan_count' });
    assert.equal(v24.status, 400);
    assert.equal(v24.body.error.message, '(#100) Tried accessing nonexisting field (fan_count) on node type (Page)');
    const v26 = await get(`/v2.6/${page}`, { access_token: fixture.aliceToken, fields: 'fan_count,likes{name}' });
    assert.equal(v26.status, 200, v26.text);
    assert.equal(v26.body.fan_count, 2);
    assert.deepEqual(v26.body.likes.data, [{ name: "Bob's Bikes", id: String(bobsPage) }]);
  });

  it('lists exactly the fields and edges of each version in metadata=1', async () => {
    const v24 = await get(`/v2.4/${page}`, { access_token: fixture.aliceToken, metadata: '1', fields: 'id' });
    assert.deepEqual(v24.body.metadata.fields.map((field: any) => field.name), PAGE_FIELDS_V24);
    assert.deepEqual(Object.keys(v24.body.metadata.connections), PAGE_EDGES_V24);
    const v26 = await get(`/v2.6/${page}`, { access_token: fixture.aliceToken, metadata: '1', fields: 'id' });
    const fields26 = v26.body.metadata.fields.map((field: any) => field.name);
    assert.ok(fields26.includes('fan_count') && !fields26.includes('likes'));
    assert.deepEqual(Object.keys(v26.body.metadata.connections).sort(), [...PAGE_EDGES_V24, 'likes'].sort());
  });

  it('reads the page edges: tagged posts, feed, posts', async () => {
    const tagged = await get(`/v2.4/${page}/tagged`, { access_token: fixture.aliceToken, fields: 'message' });
    assert.deepEqual(tagged.body.data, [{ message: 'Breakfast at Harbor Light Bakery with Bob Brook', id: fixture.postId(linkPost, alice) }]);
    const feed = await get(`/v2.4/${page}/feed`, { access_token: fixture.aliceToken });
    assert.deepEqual(feed.body, { data: [] });
  });

  it('lists the pages a person administers with manage_pages, and nothing without it', async () => {
    const accounts = await accountsOf(fixture.aliceToken);
    assert.equal(accounts.data.length, 1);
    const [item] = accounts.data;
    assert.deepEqual(Object.keys(item), ['access_token', 'category', 'name', 'perms', 'id']);
    assert.deepEqual(item, { access_token: item.access_token, category: 'Bakery', name: 'Harbor Light Bakery', perms: item.perms, id: String(page) });
    assert.match(item.access_token, /^EAA/);
    assert.ok(item.perms.includes('ADMINISTER'));
    const chosen = await get('/v2.4/me/accounts', { access_token: fixture.aliceToken, fields: 'name,category_list' });
    assert.deepEqual(chosen.body.data, [{ name: 'Harbor Light Bakery', category_list: PAGE_DATA.category_list, id: String(page) }]);

    // Bob administers a page too, but granted no manage_pages.
    const bobToken = await fixture.tokenFor(bob, ['public_profile', 'user_posts']);
    assert.deepEqual(await accountsOf(bobToken), { data: [] });
    // Nobody reads another person's pages.
    const others = await get(`/v2.4/${fixture.scoped(bob)}/accounts`, { access_token: fixture.aliceToken });
    assert.deepEqual(others.body, { data: [] });
  });

  it('gives a page access_token field to its administrators only', async () => {
    const admin = await get(`/v2.4/${page}`, { access_token: fixture.aliceToken, fields: 'access_token' });
    assert.match(admin.body.access_token, /^EAA/);
    const me = await get('/v2.4/me', { access_token: admin.body.access_token });
    assert.deepEqual(me.body, { name: 'Harbor Light Bakery', id: String(page) });
    const bobToken = await fixture.tokenFor(bob, ['public_profile', 'manage_pages']);
    const stranger = await get(`/v2.4/${page}`, { access_token: bobToken, fields: 'access_token,name' });
    assert.deepEqual(stranger.body, { name: 'Harbor Light Bakery', id: String(page) });
    const ownPage = await get(`/v2.4/${bobsPage}`, { access_token: bobToken, fields: 'access_token' });
    assert.match(ownPage.body.access_token, /^EAA/);
  });

  it('answers /me with a page token as the page, and debug_token as a PAGE token', async () => {
    const token = await pageToken();
    const me = await get('/v2.4/me', { access_token: token, fields: 'name,category' });
    assert.deepEqual(me.body, { name: 'Harbor Light Bakery', category: 'Bakery', id: String(page) });
    const debug = await get('/v2.4/debug_token', { input_token: token, access_token: `${fixture.app.id}|${fixture.app.secret}` });
    assert.equal(debug.status, 200, debug.text);
    assert.equal(debug.body.data.type, 'PAGE');
    assert.equal(debug.body.data.profile_id, String(page));
    assert.equal(debug.body.data.user_id, fixture.scoped(alice));
    assert.equal(debug.body.data.is_valid, true);
  });

  it('posts, comments and likes as the page with publish_pages', async () => {
    const token = await pageToken();
    const created = await server.form('/v2.4/me/feed', { access_token: token, message: 'Fresh loaves at seven', link: 'https://harborlight.example.com/menu' });
    assert.equal(created.status, 200, created.text);
    const [prefix, postNumber] = created.body.id.split('_');
    assert.equal(prefix, String(page), 'a page post is prefixed with the page id');

    const read = await get(`/v2.4/${created.body.id}`, { access_token: fixture.aliceToken, fields: 'from,message,privacy,application,attachments' });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.from, { name: 'Harbor Light Bakery', id: String(page) });
    assert.equal(read.body.privacy.value, 'EVERYONE');
    assert.equal(read.body.application.id, String(fixture.app.id));
    assert.deepEqual(read.body.attachments.data, [{ target: { url: 'https://harborlight.example.com/menu' }, type: 'share', url: 'https://harborlight.example.com/menu' }]);
    // Bob, no friend of the page, sees it on the page's feed.
    const bobToken = await fixture.tokenFor(bob, ['public_profile', 'user_posts']);
    const feed = await get(`/v2.4/${page}/feed`, { access_token: bobToken, fields: 'message,from' });
    assert.deepEqual(feed.body.data[0], { message: 'Fresh loaves at seven', from: { name: 'Harbor Light Bakery', id: String(page) }, id: created.body.id });
    const pagePosts = await get('/v2.4/me/posts', { access_token: token, fields: 'id' });
    assert.deepEqual(pagePosts.body.data.map((post: any) => post.id), [created.body.id]);

    const alicePost = fixture.postId(fixture.posts.popular, alice);
    const comment = await server.form(`/v2.4/${alicePost}/comments`, { access_token: token, message: 'Thank you for coming!' });
    assert.equal(comment.status, 200, comment.text);
    const commentRead = await get(`/v2.4/${comment.body.id}`, { access_token: fixture.aliceToken, fields: 'from,message' });
    assert.deepEqual(commentRead.body, { from: { name: 'Harbor Light Bakery', id: String(page) }, message: 'Thank you for coming!', id: comment.body.id });

    const like = await server.form(`/v2.4/${fixture.postId(linkPost, alice)}/likes`, { access_token: token });
    assert.deepEqual(like.body, { success: true });
    const likers = await get(`/v2.4/${fixture.postId(linkPost, alice)}/likes`, { access_token: fixture.aliceToken });
    assert.deepEqual(likers.body.data, [{ name: 'Harbor Light Bakery', id: String(page) }]);

    const gone = await server.form(`/v2.4/${created.body.id}`, { access_token: token }, 'DELETE');
    assert.deepEqual(gone.body, { success: true });
    assert.equal(Number(postNumber) > 0, true);
  });

  it('comment-hiding: from v2.2 a comment read without fields by the page whose post it is on says can_hide and is_hidden', async () => {
    const token = await pageToken();
    const post = (await server.form('/v2.4/me/feed', { access_token: token, message: 'Rye on Fridays' })).body.id as string;
    const comment = await server.form(`/v2.4/${post}/comments`, { access_token: fixture.aliceToken, message: 'Save me one' });
    assert.equal(comment.status, 200, comment.text);
    const plain = ['id', 'from', 'message', 'can_remove', 'created_time', 'like_count', 'user_likes'];
    const keys = async (version: string, path: string, access: string) => {
      const reply = await get(`/${version}/${path}`, { access_token: access });
      assert.equal(reply.status, 200, reply.text);
      return Object.keys(reply.body.data?.[0] ?? reply.body);
    };
    for (const version of ['v2.2', 'v2.3']) {
      assert.deepEqual(await keys(version, comment.body.id, token), [...plain, 'can_hide', 'is_hidden'], version);
      assert.deepEqual(await keys(version, `${post}/comments`, token), [...plain, 'can_hide', 'is_hidden'], `${version}, listed`);
      assert.deepEqual(await keys(version, comment.body.id, fixture.aliceToken), plain, `${version}: not the author, who does not own the post`);
    }
    assert.deepEqual(await keys('v2.1', comment.body.id, token), plain);
    assert.deepEqual(await keys('v2.4', comment.body.id, token), ['created_time', 'from', 'message', 'id']);
    const asked = await get(`/v2.2/${comment.body.id}`, { access_token: fixture.aliceToken, fields: 'can_hide,is_hidden' });
    assert.deepEqual(asked.body, { can_hide: false, is_hidden: false, id: comment.body.id }, 'asked for by name, anyone reads them');
    await server.form(`/v2.4/${post}`, { access_token: token }, 'DELETE');
  });

  it("lets a visitor post on a page's feed as themselves", async () => {
    const created = await server.form(`/v2.4/${bobsPage}/feed`, { access_token: fixture.aliceToken, message: 'Great repair, thank you', fields: 'from,to,status_type' });
    assert.equal(created.status, 200, created.text);
    assert.ok(created.body.id.startsWith(`${fixture.scoped(alice)}_`));
    assert.deepEqual(created.body.from, { name: 'Alice Arden', id: fixture.scoped(alice) });
    assert.deepEqual(created.body.to, { data: [{ name: "Bob's Bikes", id: String(bobsPage) }] });
    assert.equal(created.body.status_type, 'wall_post');
    const feed = await get(`/v2.4/${bobsPage}/feed`, { access_token: fixture.aliceToken, fields: 'message' });
    assert.deepEqual(feed.body.data, [{ message: 'Great repair, thank you', id: created.body.id }]);
    const posts = await get(`/v2.4/${bobsPage}/posts`, { access_token: fixture.aliceToken });
    assert.deepEqual(posts.body, { data: [] }, "a visitor's post is on the page's feed, not among its own posts");
  });

  it('refuses to write as the page without publish_pages', async () => {
    const narrow = await fixture.tokenFor(alice, ['public_profile', 'manage_pages', 'publish_actions']);
    const token = (await accountsOf(narrow)).data[0].access_token;
    const refused = await server.form('/v2.4/me/feed', { access_token: token, message: 'Not allowed' });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 200);
    assert.match(refused.body.error.message, /publish_pages/);
    // Reading the page's own feed needs nothing more.
    const feed = await get('/v2.4/me/feed', { access_token: token });
    assert.equal(feed.status, 200, feed.text);
  });

  it('revokes page tokens with the person who removes the app', async () => {
    const carol = fixture.users.carol;
    await fixture.store.write([{ op: 'addAssoc', type: 'page_admins', id1: carol, id2: bobsPage, time: NOW }]);
    const carolToken = await fixture.tokenFor(carol, ['public_profile', 'manage_pages', 'publish_pages']);
    const token = (await accountsOf(carolToken)).data[0].access_token;
    assert.equal((await get('/v2.4/me', { access_token: token })).status, 200);
    const removed = await server.form('/v2.4/me/permissions', { access_token: carolToken }, 'DELETE');
    assert.deepEqual(removed.body, { success: true });
    const after = await get('/v2.4/me', { access_token: token });
    assert.equal(after.status, 400, after.text);
    assert.equal(after.body.error.code, 190);
  });

  it('stops a page token once its person no longer administers the page', async () => {
    const dave = fixture.users.dave;
    await fixture.store.write([{ op: 'addAssoc', type: 'page_admins', id1: dave, id2: page, time: NOW }]);
    const daveToken = await fixture.tokenFor(dave, ['public_profile', 'manage_pages']);
    const token = (await accountsOf(daveToken)).data[0].access_token;
    await fixture.store.write([{ op: 'removeAssoc', type: 'page_admins', id1: dave, id2: page }]);
    const reply = await get('/v2.4/me', { access_token: token });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.code, 190);
  });

  it('answers page-token calls with X-Page-Usage when rate limits are on', async () => {
    const limited = await startServer(fixture.store, { clock: Clock.frozenAt(NOW), rateLimits: true });
    try {
      const token = await pageToken();
      const asPage = await limited.get('/v2.4/me', { access_token: token });
      assert.equal(asPage.status, 200, asPage.text);
      assert.deepEqual(Object.keys(JSON.parse(asPage.headers.get('x-page-usage')!)), ['call_count', 'total_cputime', 'total_time']);
      assert.ok(asPage.headers.get('x-app-usage'));
      const asPerson = await limited.get('/v2.4/me', { access_token: fixture.aliceToken });
      assert.equal(asPerson.headers.get('x-page-usage'), null);
    } finally {
      await limited.close();
    }
  });

  it('reads the page, its posts, their likes and comments with one store call per level', async () => {
    const token = await pageToken();
    for (let i = 0; i < 3; i++) await server.form('/v2.4/me/feed', { access_token: token, message: `Post ${i}` });
    const read = async (limit: number) => {
      calls.length = 0;
      const reply = await get(`/v2.4/${page}`, {
        access_token: fixture.aliceToken,
        fields: `name,likes,posts.limit(${limit}){from,message,shares,attachments,likes.summary(true){name},comments{from,user_likes}}`,
      });
      assert.equal(reply.status, 200, reply.text);
      return [...calls].sort();
    };
    // Warmed by a read of its own, so that the two compared find the caches of the process alike.
    await read(2);
    assert.deepEqual(await read(3), await read(1));
  });
});
