/**
 * Read-path benchmark: requests per second for typical Graph reads against a bare Fastify route
 * measured in the same run, reported as ratios (machine speed cancels out of a ratio).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { issueUserToken } from '../src/auth/tokens.js';
import { buildApp } from '../src/http/app.js';
import { Schema } from '../src/schema/registry.js';
import { seedGraph } from '../src/seed/demo-graph.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = 16;

async function measure(url: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const response = await fetch(url);
      if (response.status !== 200) throw new Error(`${response.status} from ${url}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return REQUESTS / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const now = Math.floor(Date.now() / 1000);
  const { appId, demoUserId } = await seedGraph(store, { users: 200, seed: 'bench', now });
  const { accessToken } = await issueUserToken(store, { appId, userId: demoUserId, scopes: Schema.default().allScopes(), expiresIn: 3600, now });

  const bare = Fastify();
  bare.get('/bare', async () => ({ name: 'Bare Route', id: '1' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const loom = await buildApp({ store, mediaDir: join(dir, 'media') });
  await loom.listen({ port: 0, host: '127.0.0.1' });
  const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const token = `access_token=${accessToken}`;
  const cases: Array<[string, string]> = [
    ['bare Fastify route (baseline)', `${base(bare)}/bare`],
    ['GET /me', `${base(loom)}/v2.4/me?${token}`],
    ['GET /me/feed (25 posts)', `${base(loom)}/v2.4/me/feed?${token}`],
    ['GET /me?fields=friends{name,posts.limit(5){likes.summary(true)}}', `${base(loom)}/v2.4/me?fields=${encodeURIComponent('friends{name,posts.limit(5){likes.summary(true)}}')}&${token}`],
  ];
  await measure(cases[1]![1]); // warm up
  const baseline = await measure(cases[0]![1]);
  console.log(`${REQUESTS} requests per case, ${CONCURRENCY} at a time`);
  console.log(`${cases[0]![0]}: ${baseline.toFixed(0)} req/s (ratio 1.00)`);
  for (const [name, url] of cases.slice(1)) {
    const rate = await measure(url);
    console.log(`${name}: ${rate.toFixed(0)} req/s (ratio ${(rate / baseline).toFixed(3)} of baseline)`);
  }
  await loom.close();
  await bare.close();
  await store.close();
}

await main();
