import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Counts calls into a real store, passing every call through untouched. */
function countingStore(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

describe('batched execution', () => {
  let fixture: Fixture;
  let server: TestServer;
  let calls: string[];
  before(async () => {
    fixture = await buildFixture();
    const counting = countingStore(fixture.store);
    calls = counting.calls;
    server = await startServer(counting.store, { clock: () => fixture.now });
  });
  after(async () => {
    await server.close();
    await fixture.store.close();
  });

  async function storeCalls(fields: string): Promise<{ calls: string[]; body: any }> {
    calls.length = 0;
    const reply = await server.get('/v2.4/me', { access_token: fixture.aliceToken, fields });
    assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 200));
    return { calls: [...calls], body: reply.body };
  }

  it('loads a 3-level query over 25 × 5 items with as many store calls as over 2 × 1', async () => {
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

  it('keeps one page call per edge and level', async () => {
    const { calls: made } = await storeCalls('friends.limit(25){posts.limit(5){likes.limit(5){name}}}');
    assert.equal(made.filter((call) => call === 'getPages').length, 3);
  });
});
