import { after, before } from 'node:test';
import type { AppOptions } from '../../src/server/build-app.js';
import { Clock } from '../../src/clock/clock.js';
import { buildFixture, type Fixture } from './fixture.js';
import { startServer, type TestServer } from './server.js';

/** Registers before/after hooks that build the fixture and serve it; read the fields inside tests. */
export function useFixtureServer(options: Partial<AppOptions> = {}): { fixture: Fixture; server: TestServer } {
  const state = {} as { fixture: Fixture; server: TestServer };
  before(async () => {
    state.fixture = await buildFixture();
    state.server = await startServer(state.fixture.store, { clock: Clock.frozenAt(state.fixture.now), ...options });
  });
  after(async () => {
    await state.server.close();
    await state.fixture.store.close();
  });
  return state;
}
