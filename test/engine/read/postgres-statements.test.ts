import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { useWireCountingServer } from '../../helpers/counted-server.js';
import type { Fixture } from '../../helpers/fixture.js';
import type { TestServer } from '../../helpers/server.js';
import { testStoreKind } from '../../helpers/test-store.js';
import type { WireCounter } from '../../helpers/wire-counter.js';

// Statements counted on the wire between a real server and PostgreSQL, not calls into the store.
describe('statements sent to PostgreSQL', { skip: testStoreKind !== 'postgres' && 'runs in the PostgreSQL half' }, () => {
  let fixture: Fixture;
  let counter: WireCounter;
  let store: PostgresStore;
  let server: TestServer;
  const counted = useWireCountingServer();
  const { statementsFor } = counted;
  before(() => {
    ({ fixture, counter, store, server } = counted);
  });

  it('pays one round trip per level of a nested query, and none for a token it has seen', async () => {
    // The first requests read the token; it is remembered once the server listens for revocations.
    for (let i = 0; i < 3; i++) await statementsFor('id');
    // The control plane's shared state (clock, faults) is read again only when a notification
    // says it changed: a request pays nothing for it.
    const node = await statementsFor('id,name');
    assert.equal(node.roundTrips, 1, 'the node itself');
    const one = await statementsFor('posts.limit(25){created_time}');
    assert.equal(one.body.posts.data.length, 3);
    // The viewer's own node is known to be a person before it is read: its posts are read alongside it.
    assert.equal(one.roundTrips, 1, 'the node, and its posts with their objects');
    const two = await statementsFor('posts.limit(25){created_time,likes.limit(5){name},comments.limit(0).summary(true)}');
    const posts = two.body.posts.data;
    assert.ok(posts.some((post: any) => post.likes?.data.length === 5), 'a post shows five likes');
    assert.ok(posts.some((post: any) => post.comments.summary.total_count > 0), 'a post counts its comments');
    // Whether each liker uses the viewer's app (which decides how much of them shows) comes with
    // the page of likers: it costs no read of its own.
    assert.equal(two.roundTrips, 2, 'the node with its posts, then their likes and comment counts side by side');
  });

  it('sends as many statements for a 3-level query over 25 × 5 × 5 items as over 2 × 1 × 5', async () => {
    // The pool opens a connection the first time a level sends more statements side by side than
    // it has connections; opening it is a wait of its own, which this count is not about.
    await statementsFor('friends.limit(25){posts.limit(5){likes.limit(5){name}}}');
    const big = await statementsFor('friends.limit(25){posts.limit(5){likes.limit(5){name}}}');
    const friends = big.body.friends.data;
    assert.equal(friends.length, 25);
    const posts = friends.flatMap((friend: any) => friend.posts?.data ?? []);
    assert.equal(posts.length, 24 * 5 + 1);
    const likes = posts.flatMap((post: any) => post.likes?.data ?? []);
    assert.ok(likes.length >= 240, `likes listed: ${likes.length}`);

    const small = await statementsFor('friends.limit(2){posts.limit(1){likes.limit(5){name}}}');
    assert.equal(small.body.friends.data.length, 2);
    assert.equal(big.statements, small.statements, 'statements do not grow with the items');
    assert.ok(big.statements >= 3 && big.statements <= 20, `statements for the 3-level query: ${big.statements}`);
    assert.equal(big.roundTrips, 3, 'the node with its friends and their count, the friends\' posts, then the posts\' likers');
    assert.equal(small.roundTrips, big.roundTrips);
  });

  it('reads a page of the viewer\'s own edge, with its count, alongside the viewer', async () => {
    // As in the test before, the first read opens the connections the later ones find ready.
    for (let i = 0; i < 2; i++) {
      counter.reset();
      const reply = await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken, limit: '25' });
      assert.equal(reply.status, 200, reply.text.slice(0, 200));
      assert.equal(reply.body.data.length, 25);
      assert.ok(reply.body.summary.total_count >= 25);
    }
    assert.equal(counter.roundTrips(), 1, 'the node, the page with its people, and the count side by side');
  });

  it('reads another node by id with what its person lets the app see, in one round trip', async () => {
    const read = async (id: string, fields: string) => {
      // Cold: no one's use of the app remembered, the viewer's token known.
      await statementsFor('id');
      counter.reset();
      const reply = await server.get(`/v2.4/${id}`, { access_token: fixture.aliceToken, fields });
      assert.equal(reply.status, 200, reply.text.slice(0, 200));
      assert.equal(reply.body.id, id);
      return { statements: counter.statements(), roundTrips: counter.roundTrips() };
    };
    assert.deepEqual(await read(fixture.scoped(fixture.users.bob), 'id,name'), { statements: 1, roundTrips: 1 }, 'the person with their grants');
    // Whether Alice is Bob's friend is asked once the post names its owner.
    assert.deepEqual(
      await read(fixture.postId(fixture.posts.bobs, fixture.users.bob), 'id,message'),
      { statements: 2, roundTrips: 2 },
      'the post with its owner\'s grants, then the friendship its audience asks for',
    );
  });

  it('sends one statement per level for pages, whatever the number of parents', async () => {
    const one = await statementsFor('friends.limit(1){name}');
    const two = await statementsFor('friends.limit(25){name,posts.limit(5){message}}');
    const three = await statementsFor('friends.limit(25){name,posts.limit(5){message,likes.limit(5){name}}}');
    assert.ok(two.statements > one.statements && three.statements > two.statements);
    assert.ok(three.statements - two.statements <= 3, `a third level costs ${three.statements - two.statements} statements`);
  });

  it('writes a batch of many objects and associations in a fixed number of statements', async () => {
    const ops = (n: number) => [
      ...Array.from({ length: n }, () => ({ op: 'createObject' as const, object: { type: 'post', owner: fixture.users.alice, createdTime: 1, data: {} } })),
      ...Array.from({ length: n }, (_, i) => ({ op: 'addAssoc' as const, type: 'feed', id1: fixture.users.alice, id2: { ref: i }, time: 1 })),
    ];
    counter.reset();
    await store.write(ops(2));
    const small = counter.statements();
    counter.reset();
    const { results } = await store.write(ops(500));
    assert.equal(counter.statements(), small);
    assert.ok(small <= 5, `BEGIN, ids, objects, associations, COMMIT: ${small}`);
    assert.equal(new Set(results.slice(0, 500)).size, 500);
    assert.ok(results.slice(500).every((result) => result === true));
  });

  it('sends the reads of one kind that one turn asks for as one statement, each answered with its own', async () => {
    const { alice, bob } = fixture.users;
    // A connection is open and idle, so a read need not wait for one.
    await store.getObjects([alice]);
    counter.reset();
    const first = store.getObjects([alice]);
    // Bob's is asked later in the same turn, as the next request read in that turn would ask it.
    // The pool has connections to spare: only waiting for the end of the turn puts the two together.
    for (let step = 0; step < 5; step++) await new Promise((resolve) => process.nextTick(resolve));
    const [ofAlice, ofBob] = await Promise.all([first, store.getObjects([bob])]);
    assert.equal(counter.statements(), 1);
    assert.deepEqual([...ofAlice.keys()], [alice]);
    assert.deepEqual([...ofBob.keys()], [bob]);
  });
});
