import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { addMediaGraph } from '../helpers/media-graph.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { testStoreKind } from '../helpers/test-store.js';
import { startWireCounter, type WireCounter } from '../helpers/wire-counter.js';
import { Clock } from '../../src/control/clock.js';
import { issueUserToken } from '../../src/auth/tokens.js';

// Round trips counted on the wire between a real server and PostgreSQL.
describe('round trips to PostgreSQL across events', { skip: testStoreKind !== 'postgres' && 'runs in the PostgreSQL half' }, () => {
  let fixture: Fixture;
  let counter: WireCounter;
  let store: PostgresStore;
  let server: TestServer;
  before(async () => {
    fixture = await buildFixture();
    await addMediaGraph(fixture);
    counter = await startWireCounter(fixture.path);
    store = await openPostgresStore(counter.url);
    server = await startServer(store, { clock: Clock.frozenAt(fixture.now) });
  });
  after(async () => {
    await server.close();
    await store.close();
    await counter.close();
    await fixture.store.close();
  });

  /**
   * Forgets, as any change to auth makes the server forget, which people it knows to use the app:
   * a new token moves the auth version. The viewer's token is then read again (until the server remembers it), outside any count.
   */
  async function forgetAppUse(): Promise<void> {
    const { app, users, now } = fixture;
    await issueUserToken(store, { appId: app.id, userId: users.alice, scopes: ['public_profile'], expiresIn: 3600, now });
    for (let i = 0; i < 3; i++) await server.get('/v2.4/me', { access_token: fixture.aliceToken, fields: 'id' });
  }

  async function sent(fields: string): Promise<{ statements: number; roundTrips: number; body: any }> {
    counter.reset();
    const reply = await server.get('/v2.4/me', { access_token: fixture.aliceToken, fields });
    assert.equal(reply.status, 200, reply.text.slice(0, 200));
    return { statements: counter.statements(), roundTrips: counter.roundTrips(), body: reply.body };
  }

  it('sends as many statements for events{attending, feed{likes}} with three guests and two posts as with one of each, a few round trips deep', async () => {
    for (let i = 0; i < 3; i++) await sent('id');
    const query = 'events{name,attending.limit(3){name},feed.limit(2){message,likes.summary(true)}}';
    await forgetAppUse();
    const all = await sent(query);
    const [party] = all.body.events.data;
    assert.equal(party.attending.data.length, 3);
    assert.equal(party.feed.data.length, 2);
    assert.equal(party.feed.data[0].likes.summary.total_count, 2);
    await forgetAppUse();
    const small = await sent(query.replace('limit(3)', 'limit(1)').replace('limit(2)', 'limit(1)'));
    assert.equal(small.body.events.data[0].feed.data.length, 1);
    // People already known to use the app are not asked about again, so the smaller query may
    // need one more read of grants than the larger; more items never cost more statements.
    assert.ok(all.statements <= small.statements, `statements do not grow with the items: ${all.statements} > ${small.statements}`);
    // Shared state, the node, its events, their guests and walls, the walls' authors' use of the
    // app, their likes with counts: the guests' and walls' statements may overlap or follow.
    assert.ok(all.roundTrips >= 4 && all.roundTrips <= 7, `round trips: ${all.roundTrips}`);
  });
});
