import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { Clock } from '../../src/clock/clock.js';

const JSON_TYPE = 'application/json; charset=UTF-8';

describe('node reads over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const clock = Clock.frozenAt(0);
  before(async () => {
    fixture = await buildFixture();
    clock.freeze(fixture.now);
    server = await startServer(fixture.store, { clock });
    token = fixture.aliceToken;
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  function assertGraphError(reply: Reply, status: number, error: Record<string, unknown>, authenticate?: string) {
    assert.equal(reply.status, status);
    assert.equal(reply.headers.get('content-type'), JSON_TYPE);
    const { fbtrace_id, ...rest } = reply.body.error;
    assert.deepEqual(rest, error);
    assert.match(fbtrace_id, /^[A-Za-z0-9_-]{11}$/);
    assert.equal(reply.headers.get('x-fb-trace-id'), fbtrace_id);
    if (authenticate) {
      assert.equal(reply.headers.get('www-authenticate'), `OAuth "Facebook Platform" "${authenticate}" "${String(error.message)}"`);
    }
  }

  it('answers me with the default fields name then id, as JSON with the exact content type', async () => {
    const reply = await server.get('/v2.4/me', { access_token: token });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-type'), JSON_TYPE);
    assert.equal(reply.headers.get('facebook-api-version'), 'v2.4');
    assert.equal(reply.headers.get('access-control-allow-origin'), '*', 'any page may call the API');
    assert.equal(reply.text, `{"name":"Alice Arden","id":"${fixture.scoped(fixture.users.alice)}"}`);
  });

  it('serves unversioned paths and later v2.x prefixes as v2.4, naming the version that answered', async () => {
    const expected = (await server.get('/v2.4/me', { access_token: token })).text;
    for (const [path, version] of [['/me', 'v2.4'], ['/v2.5/me', 'v2.5'], ['/v2.12/me', 'v2.12'], ['/v3.1/me', 'v3.1']]) {
      const reply = await server.get(path!, { access_token: token });
      assert.equal(reply.text, expected, path);
      assert.equal(reply.headers.get('facebook-api-version'), version);
    }
  });

  it('returns requested fields in request order with id appended last', async () => {
    const reply = await server.get('/v2.4/me', { access_token: token, fields: 'email,name,birthday' });
    assert.deepEqual(Object.keys(reply.body), ['email', 'name', 'birthday', 'id']);
    assert.equal(reply.body.birthday, '04/12/1990');
  });

  it('keeps id where the client placed it', async () => {
    const reply = await server.get('/v2.4/me', { access_token: token, fields: 'id,name' });
    assert.deepEqual(Object.keys(reply.body), ['id', 'name']);
  });

  it('reads the token from a form body and from a JSON body', async () => {
    const form = await server.fetch(`${server.url}/v2.4/me?method=get`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: token, fields: 'name' }).toString(),
    });
    assert.equal(form.status, 200);
    assert.equal(form.body.name, 'Alice Arden');
    const json = await server.fetch(`${server.url}/v2.4/me?method=get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token }),
    });
    assert.equal(json.body.name, 'Alice Arden');
  });

  it('reads a post by its compound id with the default post fields', async () => {
    const id = fixture.postId(fixture.posts.popular, fixture.users.alice);
    assert.match(id, /^\d+_\d+$/);
    const reply = await server.get(`/v2.4/${id}`, { access_token: token });
    assert.deepEqual(reply.body, { message: 'Hello, loom', created_time: '2025-09-29T08:53:20+0000', id });
    const story = await server.get(`/v2.4/${fixture.postId(fixture.posts.story, fixture.users.alice)}`, { access_token: token });
    assert.deepEqual(Object.keys(story.body), ['story', 'created_time', 'id']);
  });

  it('leaves likes out of a post that has none, and nests them as a collection when there are some', async () => {
    const quiet = await server.get(`/v2.4/${fixture.postId(fixture.posts.quiet, fixture.users.alice)}`, {
      access_token: token,
      fields: 'likes,created_time',
    });
    assert.deepEqual(Object.keys(quiet.body), ['created_time', 'id']);
    const popular = await server.get(`/v2.4/${fixture.postId(fixture.posts.popular, fixture.users.alice)}`, {
      access_token: token,
      fields: 'likes,created_time',
    });
    assert.deepEqual(Object.keys(popular.body), ['likes', 'created_time', 'id']);
    assert.equal(popular.body.likes.data.length, 25);
    assert.ok(popular.body.likes.paging.next);
  });

  it('runs every fields form of the spec', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const braces = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'likes{name},message' });
    const method = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'likes.fields(name),message' });
    assert.deepEqual(braces.body, method.body);
    const chained = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'likes.limit(1).summary(true)' });
    assert.equal(chained.body.likes.data.length, 1);
    assert.deepEqual(chained.body.likes.summary, { total_count: 1000, can_like: true, has_liked: false });
    const combined = await server.get(`/v2.4/${post}`, {
      access_token: token,
      fields: 'likes.fields(name).summary(true)',
      since: String(fixture.now - 9 * 86_400 + 990),
      limit: '4',
    });
    assert.deepEqual(combined.body.likes.data.map((like: { name: string }) => like.name), ['Liker 0999', 'Liker 0998', 'Liker 0997', 'Liker 0996']);
    const mixed = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'comments.limit(2){message,from}' });
    assert.deepEqual(mixed.body.comments.data.map((c: { message: string }) => c.message), ['Comment 1', 'Comment 2']);
    assert.deepEqual(Object.keys(mixed.body.comments.data[0]), ['message', 'from', 'id']);
  });

  it('answers fields and edges under their .as(alias), twice when asked under two aliases', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const reply = await server.get(`/v2.4/${post}`, {
      access_token: token,
      fields: 'message.as(text),likes.limit(1).summary(true).as(first_like){name},likes.limit(0).summary(true).as(like_count)',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body), ['text', 'first_like', 'like_count', 'id']);
    assert.equal(reply.body.first_like.data.length, 1);
    assert.deepEqual(reply.body.like_count, { data: [], summary: { total_count: 1000, can_like: true, has_liked: false } });
    const bad = await server.get('/v2.4/me', { access_token: token, fields: 'name.as(not-ok)' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 100);
  });

  it('stops a request that reads more edge items in all than the budget, with code 100', async () => {
    const small = await startServer(fixture.store, { clock, limits: { maxItems: 60 } });
    try {
      const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
      const within = await small.get(`/v2.4/${post}`, { access_token: token, fields: 'likes.limit(50){name}' });
      assert.equal(within.status, 200, within.text);
      // Each edge alone is within the budget; together they are not.
      const nested = await small.get(`/v2.4/${post}`, { access_token: token, fields: 'likes.limit(40){name},likes.limit(40).as(more_likes){name}' });
      assert.equal(nested.status, 400);
      assert.equal(nested.body.error.code, 100);
      assert.match(nested.body.error.message, /reads more than 60 items/);
    } finally {
      await small.close();
    }
  });

  it('nests to depth five and beyond in both forms', async () => {
    const braces = 'friends.limit(1){posts.limit(1){likes.limit(1){likes.limit(1){name},friends{name}}}}';
    const reply = await server.get('/v2.4/me', { access_token: token, fields: `name,${braces}` });
    assert.equal(reply.status, 200);
    const post = reply.body.friends.data[0].posts.data[0];
    assert.match(post.id, /^\d+_\d+$/);
    assert.equal(post.likes.data.length, 1);
    const deep = 'friends.fields(friends.fields(friends.fields(friends.fields(friends.fields(name).limit(1)).limit(1)).limit(1)).limit(1)).limit(1)';
    const fiveLevels = await server.get('/v2.4/me', { access_token: token, fields: deep });
    assert.equal(fiveLevels.status, 200);
    assert.equal(fiveLevels.body.friends.data.length, 1);
  });

  it('accepts dotted edge names and reads them as one name', async () => {
    // Payments are a product Loom does not emulate: the edge, found by its whole name, answers the product's error.
    const capability = { message: '(#3) Application does not have the capability to make this API call.', type: 'OAuthException', code: 3 };
    const reply = await server.get('/v2.4/me', { access_token: token, fields: 'payment.subscriptions.limit(2),name' });
    assertGraphError(reply, 400, capability, 'invalid_request');
    const edge = await server.get('/v2.4/me/payment.subscriptions', { access_token: token });
    assertGraphError(edge, 400, capability, 'invalid_request');
  });

  it('names an unknown field with the node type', async () => {
    assertGraphError(
      await server.get('/v2.4/me', { access_token: token, fields: 'name,hometwn' }),
      400,
      { message: '(#100) Tried accessing nonexisting field (hometwn) on node type (User)', type: 'OAuthException', code: 100 },
      'invalid_request',
    );
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const nested = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'likes{bogus}' });
    assert.equal(nested.body.error.message, '(#100) Tried accessing nonexisting field (bogus) on node type (User)');
  });

  it('answers malformed expressions with code 100 and the position of the fault', async () => {
    for (const fields of ['name{', 'name}', 'friends.limit(2', 'a,,{b}', 'name;x']) {
      const reply = await server.get('/v2.4/me', { access_token: token, fields });
      assert.equal(reply.status, 400, fields);
      assert.equal(reply.body.error.code, 100, fields);
      assert.match(reply.body.error.message, /^\(#100\) Syntax error .* at character \d+/, fields);
    }
  });

  it('survives 20,000 nested braces, huge values and bad modifiers without a 5xx', async () => {
    const cases = [
      { fields: `${'friends{'.repeat(20_000)}name${'}'.repeat(20_000)}` },
      { fields: 'a{'.repeat(20_000) },
      { fields: '}'.repeat(20_000) },
      { fields: `friends.limit(${'9'.repeat(5000)})` },
      { fields: 'friends.limit(-1)' },
      { fields: 'friends.bogus(1)' },
      { fields: `${'x'.repeat(100_000)}` },
    ];
    for (const params of cases) {
      const reply = await server.get('/v2.4/me', { access_token: token, ...params });
      assert.equal(reply.status, 400, params.fields.slice(0, 30));
      assert.equal(reply.body.error.code, 100);
      assert.ok(!reply.text.includes('    at '), 'no stack trace');
    }
  });

  it('distinguishes a missing token for me (2500) and for other nodes (104)', async () => {
    assertGraphError(await server.get('/v2.4/me'), 400, {
      message: 'An active access token must be used to query information about the current user.',
      type: 'OAuthException',
      code: 2500,
    });
    assertGraphError(await server.get(`/v2.4/${fixture.pages[0]}`), 400, {
      message: 'An access token is required to request this resource.',
      type: 'OAuthException',
      code: 104,
    });
  });

  it('refuses a garbage token with 190 and invalid_token', async () => {
    assertGraphError(
      await server.get('/v2.4/me', { access_token: 'EAAnotatoken' }),
      400,
      { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      'invalid_token',
    );
  });

  it('refuses an expired token with 190, subcode 463 and both times in the message', async () => {
    clock.freeze(fixture.now + 7200);
    try {
      const reply = await server.get('/v2.4/me', { access_token: token });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 190);
      assert.equal(reply.body.error.error_subcode, 463);
      assert.match(reply.body.error.message, /^Error validating access token: Session has expired on \w+day, \d\d-\w{3}-\d\d \d\d:\d\d:\d\d UTC\. The current time is .+\.$/);
      assert.deepEqual(Object.keys(reply.body.error), ['message', 'type', 'code', 'error_subcode', 'fbtrace_id']);
    } finally {
      clock.freeze(fixture.now);
    }
  });

  it('says an unknown object does not exist, and treats unknown names as aliases', async () => {
    assertGraphError(await server.get('/v2.4/999999', { access_token: token }), 400, {
      message:
        "Unsupported get request. Object with ID '999999' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api",
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
    });
    const alias = await server.get('/v2.4/nosuchalias', { access_token: token });
    assert.equal(alias.status, 404);
    assert.equal(alias.body.error.code, 803);
  });

  it('hides what the viewer may not see behind the same "does not exist" answer', async () => {
    const internal = await server.get(`/v2.4/${fixture.users.bob}`, { access_token: token });
    assert.equal(internal.body.error.type, 'GraphMethodException', 'internal user ids are not ids');
    const plainPost = await server.get(`/v2.4/${fixture.posts.popular}`, { access_token: token });
    assert.equal(plainPost.body.error.code, 100, 'posts are reached by compound id');
    const strangers = await server.get(`/v2.4/${fixture.postId(fixture.posts.daves, fixture.users.dave)}`, { access_token: token });
    assert.equal(strangers.body.error.type, 'GraphMethodException', "a stranger's friends-only post");
    const selfOnly = await server.get(`/v2.4/${fixture.postId(fixture.posts.secret, fixture.users.bob)}`, { access_token: token });
    assert.equal(selfOnly.body.error.type, 'GraphMethodException', "a friend's only-me post");
    const friends = await server.get(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.bob)}`, { access_token: token });
    assert.equal(friends.body.message, "Bob's news");
    const wrongOwner = await server.get(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.alice)}`, { access_token: token });
    assert.equal(wrongOwner.body.error.code, 100, 'the prefix must be the author');
  });

  it('reports an unknown edge as unknown path components', async () => {
    assertGraphError(await server.get('/v2.4/me/bogus', { access_token: token }), 400, {
      message: 'Unknown path components: /bogus',
      type: 'OAuthException',
      code: 2500,
    });
  });

  it('leaves out fields whose permission the token lacks', async () => {
    const accessToken = await fixture.tokenFor(fixture.users.alice, ['public_profile']);
    const reply = await server.get('/v2.4/me', { access_token: accessToken, fields: 'name,email,birthday' });
    assert.deepEqual(Object.keys(reply.body), ['name', 'id']);
    const friends = await server.get('/v2.4/me/friends', { access_token: accessToken });
    assert.deepEqual(friends.body, { data: [] });
  });
});
