/**
 * A real server over the fixture whose work on its store a test counts: the calls into the store
 * (on either store), or the statements and round trips on the wire to PostgreSQL. Each registers
 * before/after hooks like `useFixtureServer`; read the fields inside tests.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { Clock } from '../../src/clock/clock.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import type { Store } from '../../src/store/store.js';
import { countingStore, type StoreCall } from './counting-store.js';
import { buildFixture, type Fixture } from './fixture.js';
import { startServer, type TestServer } from './server.js';
import { startWireCounter, type WireCounter } from './wire-counter.js';

/** Adds to the fixture before it is served, so the counting starts on the finished graph. */
export type Prepare = (fixture: Fixture) => Promise<unknown>;

export interface CallCountingServer {
  fixture: Fixture;
  server: TestServer;
  /** The names of the store's methods called, in order, since a test last emptied the list. */
  calls: string[];
  /** The store's methods called, with their arguments, since a test last emptied the list. */
  withArgs: StoreCall[];
  /** Empties `calls` with nothing remembered from earlier requests, so what follows is a cold read's count. */
  countFromCold(): Promise<void>;
  /** The store calls of a cold read, sorted, and the answer of GET /me with these fields as Alice. */
  storeCalls(fields: string): Promise<{ calls: string[]; body: any }>;
}

export function useCallCountingServer(prepare?: Prepare): CallCountingServer {
  const state = {} as CallCountingServer;
  before(async () => {
    state.fixture = await buildFixture();
    await prepare?.(state.fixture);
    const counting = countingStore(state.fixture.store);
    state.calls = counting.calls;
    state.withArgs = counting.withArgs;
    state.server = await startServer(counting.store, { clock: Clock.frozenAt(state.fixture.now) });
  });
  after(async () => {
    await state.server.close();
    await state.fixture.store.close();
  });
  state.countFromCold = async () => {
    await forgetAcrossRequests(state.fixture, state.fixture.store, state.server);
    state.calls.length = 0;
    state.withArgs.length = 0;
  };
  state.storeCalls = async (fields) => {
    await state.countFromCold();
    const reply = await state.server.get('/v2.4/me', { access_token: state.fixture.aliceToken, fields });
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    return { calls: [...state.calls].sort(), body: reply.body };
  };
  return state;
}

export interface WireCountingServer {
  fixture: Fixture;
  /** The relay the server's store talks to PostgreSQL through. */
  counter: WireCounter;
  /** The served store, reached through the relay, for writes a test counts without HTTP. */
  store: PostgresStore;
  server: TestServer;
  /** What GET /me with these fields as Alice sent PostgreSQL, and its answer, from a cold start but for the viewer's token. */
  statementsFor(fields: string): Promise<{ statements: number; roundTrips: number; body: any }>;
}

/** Only for a PostgreSQL fixture: the server opens the fixture's schema again, through the relay. */
export function useWireCountingServer(prepare?: Prepare): WireCountingServer {
  const state = {} as WireCountingServer;
  before(async () => {
    state.fixture = await buildFixture();
    await prepare?.(state.fixture);
    state.counter = await startWireCounter(state.fixture.path);
    // Connections enough that no read of a level waits for one: reads that wait go out together
    // (read-batches), which would make a count depend on how busy the machine is.
    const location = new URL(state.counter.url);
    location.searchParams.set('pool', '32');
    state.store = await openPostgresStore(location.toString());
    state.server = await startServer(state.store, { clock: Clock.frozenAt(state.fixture.now) });
  });
  after(async () => {
    await state.server.close();
    await state.store.close();
    await state.counter.close();
    await state.fixture.store.close();
  });
  state.statementsFor = async (fields) => {
    await forgetAcrossRequests(state.fixture, state.store, state.server);
    state.counter.reset();
    const reply = await state.server.get('/v2.4/me', { access_token: state.fixture.aliceToken, fields });
    assert.equal(reply.status, 200, reply.text.slice(0, 200));
    return { statements: state.counter.statements(), roundTrips: state.counter.roundTrips(), body: reply.body };
  };
  return state;
}

/**
 * Makes the server forget the people's grants it keeps across requests: a new token moves the
 * store's auth version, which every such cache follows. The viewer's token is then read again
 * until the server hears that nothing revoked it, outside any count.
 */
async function forgetAcrossRequests(fixture: Fixture, store: Store, server: TestServer): Promise<void> {
  const { app, users, now } = fixture;
  await issueUserToken(store, { appId: app.id, userId: users.alice, scopes: ['public_profile'], expiresIn: 3600, now });
  for (let i = 0; i < 3; i++) await server.get('/v2.4/me', { access_token: fixture.aliceToken, fields: 'id' });
}
