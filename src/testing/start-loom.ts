import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../clock/clock.js';
import { ControlClient } from '../control/control-client.js';
import { DEFAULT_MEDIA_SWEEP } from '../media/media-sweeper.js';
import { buildApp } from '../server/build-app.js';
import { demoGraphSeed, prepareGraph, type GraphStart } from '../server/prepare-graph.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { copyDemoGraph } from './demo-template.js';

/** How `startLoom` starts: the graph it holds (the demo graph, an export, or none), its port, its clock. */
export interface StartLoomOptions extends GraphStart {
  /** Port to listen on; a free one by default. */
  port?: number;
  /** Freeze the clock at this time (Unix seconds or `2026-01-01T00:00:00+0000`) from the start. */
  now?: number | string;
}

export interface TestUserOptions {
  name?: string;
  installed?: boolean;
  /** Permissions the user grants the app, e.g. `['public_profile', 'user_posts']`. */
  permissions?: readonly string[];
  locale?: string;
}

export interface TestUser {
  id: string;
  access_token?: string;
  login_url: string;
  email: string;
  password: string;
}

export interface RunningLoom extends ControlClient {
  /** The server's base URL; Graph paths go after it (`${url}/v2.4/me`). */
  url: string;
  /** Where its database and uploaded media live; `close()` deletes it. */
  directory: string;
  /** An app of the graph: its id, its secret and its app token (`id|secret`). */
  app: { id: string; secret: string; token: string };
  /** A test user of the app, made through the Graph API as a client would. */
  createTestUser(options?: TestUserOptions): Promise<TestUser>;
  /** Stops the server and deletes its data. */
  close(): Promise<void>;
}

/**
 * Starts Loom in this process on a free port with a fresh temporary database, for a test suite:
 * the returned object steers it (reset, snapshots, clock, faults, request journal) through the
 * control API, exactly as a test in another language would over HTTP.
 */
export async function startLoom(options: StartLoomOptions = {}): Promise<RunningLoom> {
  const directory = mkdtempSync(join(tmpdir(), 'loom-'));
  const database = join(directory, 'loom.db');
  // A copy of a seeded template, which prepareGraph then finds seeded; it seeds where there is none.
  if (options.demo && options.graphFile === undefined) await copyDemoGraph(database, demoGraphSeed());
  const store = openSqliteStore(database);
  try {
    const clock = Clock.real();
    const app = await prepareGraph(store, options, clock);
    // Webhooks go out to receivers on this machine, as a test suite starts them.
    const webhooks = { deliver: true, allowPrivate: true };
    // Its media folder is swept as a served one is; a sweep has nothing to say to the tests.
    const mediaSweep = { ...DEFAULT_MEDIA_SWEEP, report: () => {} };
    const server = await buildApp({ store, clock, mediaDir: join(directory, 'media'), database, mediaSweep, recordStart: true, webhooks });
    await server.listen({ port: options.port ?? 0, host: '127.0.0.1' });
    const address = server.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : options.port}`;
    const control = new ControlClient(url);
    if (options.now !== undefined) await control.clock.set(options.now);
    const token = `${app.id}|${app.secret}`;
    return Object.assign(control, {
      url,
      directory,
      app: { id: String(app.id), secret: app.secret, token },
      createTestUser: async (user: TestUserOptions = {}) => {
        const body = new URLSearchParams({ access_token: token });
        if (user.name !== undefined) body.set('name', user.name);
        if (user.installed !== undefined) body.set('installed', String(user.installed));
        if (user.permissions !== undefined) body.set('permissions', user.permissions.join(','));
        if (user.locale !== undefined) body.set('locale', user.locale);
        const response = await fetch(`${url}/v2.4/${app.id}/accounts/test-users`, { method: 'POST', body });
        const answer = (await response.json()) as TestUser & { error?: { message: string } };
        if (!response.ok) throw new Error(`Creating a test user failed: ${answer.error?.message ?? response.status}`);
        return answer;
      },
      close: async () => {
        await server.close();
        await store.close();
        rmSync(directory, { recursive: true, force: true });
      },
    });
  } catch (error) {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
