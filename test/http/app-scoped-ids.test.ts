import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import type { AppRecord, Grant } from '../../src/store/auth-store.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

/**
 * The fixture's app (A, no business) and three more: B and C of one business, D of another.
 * Alice uses all four; Bob and the likers use A and B.
 */
describe('app-scoped ids across apps', () => {
  let fixture: Fixture;
  let server: TestServer;
  let apps: { a: AppRecord; b: AppRecord; c: AppRecord; d: AppRecord };
  let tokens: { a: string; b: string; c: string; d: string };
  const served = useFixtureServer();

  const granted = (...scopes: string[]): Grant[] => scopes.map((scope) => ({ scope, status: 'granted' }));
  const idOf = (app: AppRecord, internalId: number) => scopedIdsFor(app).scope(internalId);

  before(async () => {
    ({ fixture, server } = served);
    const { store } = fixture;
    const newApp = (name: string, businessId: number) =>
      store.createApp({ name, secret: randomBytes(8).toString('hex'), idKey: randomBytes(16).toString('hex'), businessId, createdTime: fixture.now });
    const [business, otherBusiness] = fixture.pages as [number, number];
    apps = { a: fixture.app, b: await newApp('Bee', business), c: await newApp('Sea', business), d: await newApp('Dee', otherBusiness) };
    const everything = graphSchema().allScopes();
    for (const app of [apps.b, apps.c, apps.d]) {
      await store.setGrants(app.id, [{ userId: fixture.users.alice, grants: granted(...everything) }]);
    }
    await store.setGrants(apps.b.id, [
      { userId: fixture.users.bob, grants: granted('public_profile', 'user_friends', 'user_posts') },
      // The likers use B too, so B's likes lists show them.
      ...fixture.likers.map((liker) => ({ userId: liker, grants: granted('public_profile') })),
    ]);
    const tokenIn = async (app: AppRecord) =>
      (await issueUserToken(store, { appId: app.id, userId: fixture.users.alice, scopes: everything, expiresIn: 7200, now: fixture.now })).accessToken;
    tokens = { a: fixture.aliceToken, b: await tokenIn(apps.b), c: await tokenIn(apps.c), d: await tokenIn(apps.d) };
  });

  function assertUnknown(reply: Reply, id: string) {
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.type, 'GraphMethodException');
    assert.equal(reply.body.error.code, 100);
    assert.match(reply.body.error.message, new RegExp(`^Unsupported \\w+ request\\. Object with ID '${id}' does not exist`));
  }

  it('shows the same person under a different id in each app, each unknown to the other app', async () => {
    const inA = (await server.get('/v2.4/me', { access_token: tokens.a, fields: 'id,name,link' })).body;
    const inB = (await server.get('/v2.4/me', { access_token: tokens.b, fields: 'id,name,link' })).body;
    assert.equal(inA.name, inB.name);
    assert.notEqual(inA.id, inB.id);
    assert.equal(inA.id, idOf(apps.a, fixture.users.alice));
    assert.equal(inB.id, idOf(apps.b, fixture.users.alice));
    assert.equal(inA.link, `https://www.facebook.com/app_scoped_user_id/${inA.id}/`);
    assert.equal(inB.link, `https://www.facebook.com/app_scoped_user_id/${inB.id}/`);
    assertUnknown(await server.get(`/v2.4/${inA.id}`, { access_token: tokens.b }), inA.id);
    assertUnknown(await server.get(`/v2.4/${inB.id}`, { access_token: tokens.a }), inB.id);
    assertUnknown(await server.get(`/v2.4/${inA.id}`, { access_token: `${apps.b.id}|${apps.b.secret}` }), inA.id);
    assertUnknown(await server.get(`/v2.4/${inB.id}/posts`, { access_token: tokens.a }), inB.id);
    assertUnknown(await server.form(`/v2.4/${inB.id}/feed`, { access_token: tokens.a, message: 'x' }), inB.id);
    assert.equal((await server.get(`/v2.4/${inB.id}`, { access_token: tokens.b })).body.name, 'Alice Arden');
  });

  it("writes post ids with the viewer app's id of the author, and refuses another app's prefix", async () => {
    const aliceB = idOf(apps.b, fixture.users.alice);
    const postA = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const postB = `${aliceB}_${fixture.posts.popular}`;
    assertUnknown(await server.get(`/v2.4/${postA}`, { access_token: tokens.b }), postA);
    assertUnknown(await server.get(`/v2.4/${postB}`, { access_token: tokens.a }), postB);
    const read = await server.get(`/v2.4/${postB}`, { access_token: tokens.b, fields: 'from,message' });
    assert.deepEqual(read.body, { from: { name: 'Alice Arden', id: aliceB }, message: 'Hello, loom', id: postB });
    const posts = await server.get('/v2.4/me/posts', { access_token: tokens.b });
    assert.ok(posts.body.data.every((post: { id: string }) => post.id.startsWith(`${aliceB}_`)));

    const created = await server.form('/v2.4/me/feed', { access_token: tokens.b, message: 'Written through B' });
    assert.match(created.body.id, new RegExp(`^${aliceB}_\\d+$`));
    const number = created.body.id.split('_')[1];
    const throughA = await server.get(`/v2.4/${fixture.postId(Number(number), fixture.users.alice)}`, { access_token: tokens.a });
    assert.equal(throughA.body.message, 'Written through B');
  });

  it("uses the viewer app's ids in edge items, nested nodes, cursors and paging links", async () => {
    const bobA = idOf(apps.a, fixture.users.bob);
    const bobB = idOf(apps.b, fixture.users.bob);
    const friends = await server.get('/v2.4/me/friends', { access_token: tokens.b, fields: 'name' });
    assert.deepEqual(friends.body.data, [{ name: 'Bob Brook', id: bobB }], 'only bob uses app B');
    assert.deepEqual(friends.body.summary, { total_count: 26 });

    const wall = await server.form(`/v2.4/${bobA}/feed`, { access_token: tokens.a, message: 'On your wall' });
    const wallB = `${idOf(apps.b, fixture.users.alice)}_${wall.body.id.split('_')[1]}`;
    const wallPost = await server.get(`/v2.4/${wallB}`, { access_token: tokens.b, fields: 'from,to' });
    assert.equal(wallPost.body.from.id, idOf(apps.b, fixture.users.alice));
    assert.deepEqual(wallPost.body.to.data, [{ name: 'Bob Brook', id: bobB }]);
    const bobsPost = `${bobB}_${fixture.posts.bobs}`;
    const likers = await server.get(`/v2.4/${bobsPost}/likes`, { access_token: tokens.b });
    assert.deepEqual(likers.body.data, [{ name: 'Alice Arden', id: idOf(apps.b, fixture.users.alice) }]);

    const popularA = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const popularB = `${idOf(apps.b, fixture.users.alice)}_${fixture.posts.popular}`;
    const pageA = await server.get(`/v2.4/${popularA}/likes`, { access_token: tokens.a, limit: '3' });
    const pageB = await server.get(`/v2.4/${popularB}/likes`, { access_token: tokens.b, limit: '3' });
    const likerIdsB = fixture.likers.slice(-3).reverse().map((liker) => idOf(apps.b, liker));
    assert.deepEqual(pageB.body.data.map((like: { id: string }) => like.id), likerIdsB);
    assert.notDeepEqual(pageA.body.data, pageB.body.data);
    assert.notEqual(pageA.body.paging.cursors.after, pageB.body.paging.cursors.after);
    const next = new URL(pageB.body.paging.next);
    assert.equal(next.pathname, `/v2.4/${popularB}/likes`);
    for (const id of [popularA, ...pageA.body.data.map((like: { id: string }) => like.id)]) {
      assert.ok(!pageB.text.includes(id), 'no id of app A in what app B reads');
    }
    const following = await server.fetch(pageB.body.paging.next);
    assert.deepEqual(following.body.data.map((like: { id: string }) => like.id), fixture.likers.slice(-6, -3).reverse().map((liker) => idOf(apps.b, liker)));

    const foreignCursor = await server.get(`/v2.4/${popularB}/likes`, { access_token: tokens.b, after: pageA.body.paging.cursors.after });
    assert.equal(foreignCursor.status, 400);
    assert.equal(foreignCursor.body.error.code, 100);
    const otherWay = await server.get(`/v2.4/${popularA}/likes`, { access_token: tokens.a, after: pageB.body.paging.cursors.after });
    assert.equal(otherWay.body.error.code, 100);
  });

  it('gives a test user an id of the app that made them, unknown to other apps', async () => {
    const made = await server.form(`/v2.4/${apps.a.id}/accounts/test-users`, { access_token: `${apps.a.id}|${apps.a.secret}`, name: 'Tess Tester' });
    const internal = scopedIdsFor(apps.a).unscope(made.body.id)!;
    assertUnknown(await server.get(`/v2.4/${made.body.id}`, { access_token: tokens.b }), made.body.id);
    const inB = idOf(apps.b, internal);
    assert.notEqual(inB, made.body.id);
    // Tess never used B: under her id there, B reads her public profile and nothing more.
    const throughB = await server.get(`/v2.4/${inB}`, { access_token: tokens.b, fields: 'name,link,installed' });
    assert.deepEqual(throughB.body, { name: 'Tess Tester', id: inB });
    const listedInB = await server.get(`/v2.4/${apps.b.id}/accounts`, { access_token: `${apps.b.id}|${apps.b.secret}` });
    assert.deepEqual(listedInB.body, { data: [] }, "B lists none of A's test users");
  });

  it('keeps token_for_business the same across the apps of one business and different across businesses', async () => {
    const tfb = async (token: string) => (await server.get('/v2.4/me', { access_token: token, fields: 'token_for_business' })).body.token_for_business;
    const [a, b, c, d] = [await tfb(tokens.a), await tfb(tokens.b), await tfb(tokens.c), await tfb(tokens.d)];
    assert.match(b, /^[A-Za-z0-9_-]{27}$/);
    assert.equal(b, c, 'one business, one token');
    assert.notEqual(a, b, 'an app without a business is a business of its own');
    assert.notEqual(d, b);
    assert.notEqual(a, d);
    assert.equal(await tfb(tokens.b), b, 'stable between requests');

    const byAppToken = await server.get(`/v2.4/${idOf(apps.b, fixture.users.alice)}`, {
      access_token: `${apps.b.id}|${apps.b.secret}`,
      fields: 'token_for_business',
    });
    assert.equal(byAppToken.body.token_for_business, b);
    const bob = await server.get(`/v2.4/${idOf(apps.b, fixture.users.bob)}`, { access_token: tokens.b, fields: 'token_for_business' });
    assert.notEqual(bob.body.token_for_business, b, 'one per person');

    const restarted = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now) });
    try {
      const again = await restarted.get('/v2.4/me', { access_token: tokens.c, fields: 'token_for_business' });
      assert.equal(again.body.token_for_business, b, 'the same after a restart');
    } finally {
      await restarted.close();
    }
  });

  it("lists a person's ids in the apps of the business they use, with the app's name and namespace", async () => {
    await fixture.store.write([{ op: 'updateObject', id: apps.c.id, data: { namespace: 'sea-app' }, updatedTime: fixture.now }]);
    const reply = await server.get('/v2.4/me/ids_for_business', { access_token: tokens.b });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      data: [
        { id: idOf(apps.b, fixture.users.alice), app: { name: 'Bee', id: String(apps.b.id) } },
        { id: idOf(apps.c, fixture.users.alice), app: { name: 'Sea', namespace: 'sea-app', id: String(apps.c.id) } },
      ],
    });
    const cId = reply.body.data[1]!.id;
    assert.equal((await server.get(`/v2.4/${cId}`, { access_token: tokens.c })).body.name, 'Alice Arden', 'each listed id works in its app');

    const fromC = await server.get('/v2.4/me/ids_for_business', { access_token: tokens.c });
    assert.deepEqual(fromC.body.data.map((entry: { id: string }) => entry.id), [cId, reply.body.data[0]!.id], 'the viewing app first');
    const alone = await server.get('/v2.4/me/ids_for_business', { access_token: tokens.a });
    assert.deepEqual(alone.body.data.map((entry: { app: { id: string } }) => entry.app.id), [String(apps.a.id)]);
    const bobInB = await server.get(`/v2.4/${idOf(apps.b, fixture.users.bob)}/ids_for_business`, { access_token: tokens.b });
    assert.deepEqual(bobInB.body, { data: [] }, "nobody else's ids");
    const bobsToken = (await issueUserToken(fixture.store, { appId: apps.b.id, userId: fixture.users.bob, scopes: ['public_profile'], expiresIn: 60, now: fixture.now })).accessToken;
    const bobsOwn = await server.get('/v2.4/me/ids_for_business', { access_token: bobsToken });
    assert.deepEqual(bobsOwn.body.data.map((entry: { app: { id: string } }) => entry.app.id), [String(apps.b.id)], 'bob never used C');
  });
});
