import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useCallCountingServer } from '../../helpers/counted-server.js';
import type { Fixture } from '../../helpers/fixture.js';
import type { TestServer } from '../../helpers/server.js';

describe('batched execution', () => {
  let fixture: Fixture;
  let server: TestServer;
  let calls: string[];
  const counted = useCallCountingServer();
  const { storeCalls } = counted;
  before(() => {
    ({ fixture, server, calls } = counted);
  });

  it('loads a 3-level query over 25 × 5 items with as many store calls as over 2 × 1', async () => {
    await storeCalls('id'); // the token is read once, then remembered
    const big = await storeCalls('friends.limit(25){name,posts.limit(5){message,likes.limit(5).summary(true){name}}}');
    const friends = big.body.friends.data;
    assert.equal(friends.length, 25);
    const posts = friends.flatMap((friend: any) => friend.posts?.data ?? []);
    assert.equal(posts.length, 24 * 5 + 1, 'five posts from each of 24 friends, and bob\'s one visible post');
    assert.ok(posts.every((post: any) => post.likes.data.length === post.likes.summary.total_count && post.likes.data.length > 0));

    const small = await storeCalls('friends.limit(2){name,posts.limit(1){message,likes.limit(5).summary(true){name}}}');
    assert.deepEqual(big.calls.sort(), small.calls.sort());
    assert.ok(big.calls.length <= 20, `store calls: ${big.calls.join(', ')}`);
  });

  it("lists test users with the same store calls for five as for one, saving all their tokens at once", async () => {
    const app = await fixture.store.createApp({ name: 'Many testers', secret: 'many-secret', idKey: '12'.repeat(16), createdTime: fixture.now });
    const path = `/v2.4/${app.id}/accounts`;
    for (let i = 0; i < 5; i++) {
      const made = await server.form(`${path}/test-users`, { access_token: `${app.id}|many-secret` });
      assert.equal(made.status, 200, made.text);
    }
    const list = async (limit: string) => {
      calls.length = 0;
      const reply = await server.get(path, { access_token: `${app.id}|many-secret`, limit });
      assert.equal(reply.body.data.length, Number(limit));
      assert.ok(reply.body.data.every((user: { access_token?: string }) => user.access_token !== undefined));
      return [...calls].sort();
    };
    const one = await list('1');
    const five = await list('5');
    assert.deepEqual(five, one);
    assert.equal(five.filter((call) => call === 'saveTokens').length, 1);
    assert.ok(!five.includes('saveToken'), five.join(', '));
  });

  it('writes a new test user, and changes one, each in a single store write', async () => {
    const app = await fixture.store.createApp({ name: 'One write', secret: 'one-secret', idKey: '34'.repeat(16), createdTime: fixture.now });
    const token = `${app.id}|one-secret`;
    calls.length = 0;
    const made = await server.form(`/v2.4/${app.id}/accounts/test-users`, { access_token: token, permissions: 'email' });
    assert.equal(made.status, 200, made.text);
    const writes = ['write', 'setCredentials', 'setGrants', 'saveToken', 'saveTokens'];
    assert.deepEqual(calls.filter((call) => writes.includes(call)), ['write']);

    calls.length = 0;
    const changed = await server.form(`/v2.4/${made.body.id}`, { access_token: token, name: 'Renamed Tester', password: 'a new password' });
    assert.equal(changed.text, '{"success":true}');
    assert.deepEqual(calls.filter((call) => writes.includes(call)), ['write']);
  });

  it('keeps one page call per edge and level', async () => {
    const { calls: made } = await storeCalls('friends.limit(25){posts.limit(5){likes.limit(5){name}}}');
    assert.equal(made.filter((call) => call === 'getPagesWithObjects').length, 3, 'each page brings its objects');
    assert.equal(made.filter((call) => call === 'getPages' || call === 'getObjects').length, 1, 'only the root node is loaded apart');
  });

  it('reads a page asked for under many aliases once, and shows it under each', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `friends.as(f${i}).limit(3){name}`);
    const { calls: made, body } = await storeCalls([...aliases, 'friends.as(other).limit(4){name}'].join(','));
    assert.equal(made.filter((call) => call === 'getPagesWithObjects').length, 2, 'one read for the 40 equal aliases, one for the other');
    assert.equal(body.f0.data.length, 3);
    for (let i = 1; i < 40; i++) assert.deepEqual(body[`f${i}`], body.f0);
    assert.deepEqual(body.other.data.slice(0, 3), body.f0.data);
    assert.equal(body.other.data.length, 4);
  });

  it('loads all the ids of an ids= request with the same store calls for 25 ids as for 2', async () => {
    const idsCalls = async (ids: string[], edge = '') => {
      await counted.countFromCold();
      const reply = await server.get(`/v2.4/${edge}`, { access_token: fixture.aliceToken, ids: ids.join(','), fields: edge ? 'message' : 'name,posts.limit(2){message}' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(Object.keys(reply.body), ids);
      return [...calls].sort();
    };
    const friends = fixture.appFriends.map((id) => fixture.scoped(id));
    const many = await idsCalls(['me', ...friends]);
    const few = await idsCalls(['me', friends[0]!]);
    assert.deepEqual(many, few);
    assert.equal(many.filter((call) => call === 'getObjects').length, few.filter((call) => call === 'getObjects').length);
    assert.deepEqual(await idsCalls(friends, 'posts'), await idsCalls(friends.slice(0, 2), 'posts'));
  });

  it('answers a search with one store call for the matches, and one per level below them', async () => {
    const searchCalls = async (limit: string) => {
      await counted.countFromCold();
      const reply = await server.get('/v2.4/search', {
        access_token: fixture.aliceToken, q: 'friend', type: 'user', limit, fields: 'name,posts.limit(2){message,likes.limit(2){name}}',
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.data.length, Number(limit));
      assert.ok(reply.body.data.every((person: any) => person.posts.data.length === 2));
      return [...calls].sort();
    };
    const many = await searchCalls('20');
    assert.deepEqual(many, await searchCalls('2'));
    assert.equal(many.filter((call) => call === 'search').length, 1);
    assert.equal(many.filter((call) => call === 'getPagesWithObjects').length, 2, 'posts, then their likes');
  });
});
