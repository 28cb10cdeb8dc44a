import { createReadStream } from 'node:fs';
import { registerApp } from '../auth/apps.js';
import type { Clock } from '../clock/clock.js';
import { DEMO_SEED, DEMO_USERS } from '../config.js';
import { findDemo } from '../seed/demo-app.js';
import { importGraph } from '../seed/import-graph.js';
import { seedDemo, startOfToday, type DemoSeed } from '../seed/seed-once.js';
import type { AppRecord } from '../store/auth-store.js';
import type { Store } from '../store/store.js';

/** What a fresh store of a server for one test run starts with: the demo graph, an export, or nothing. */
export interface GraphStart {
  /** Seed the demo graph (60 people with six months of activity) instead of starting empty. */
  demo?: boolean;
  /** Start from an export (`loom export` NDJSON) instead of an empty graph. */
  graphFile?: string;
}

/** The demo graph a server for a test run starts with: its size, its seed, its present (today). */
export function demoGraphSeed(): DemoSeed {
  return { users: DEMO_USERS, seed: DEMO_SEED, now: startOfToday() };
}

/** Fills the new store as asked and answers the app the tests use: the demo app, or a new one. */
export async function prepareGraph(store: Store, start: GraphStart, clock: Clock): Promise<AppRecord> {
  if (start.graphFile !== undefined) await importGraph(store, createReadStream(start.graphFile));
  else if (start.demo) await seedDemo(store, 'a temporary database', demoGraphSeed());
  const demo = await findDemo(store);
  if (demo) return demo.app;
  const apps = await store.listApps();
  return apps[0] ?? registerApp(store, { name: 'Test App', now: clock.now() });
}
