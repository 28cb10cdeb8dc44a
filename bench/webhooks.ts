/**
 * Webhook benchmark: notifications (entries) delivered per second from the outbox to a local
 * receiver that checks every signature, through the same worker `loom serve` runs.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../src/clock/clock.js';
import { seedGraph } from '../src/seed/demo-graph.js';
import { openStore } from '../src/store/open-store.js';
import type { WriteOp } from '../src/store/write-ops.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../src/webhooks/settings.js';
import { DeliveryWorker } from '../src/webhooks/worker.js';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 20_000);

async function main(): Promise<void> {
  // A scratch database of its own, removed at the end, unless BENCH_DB names one.
  const scratch = process.env.BENCH_DB === undefined ? mkdtempSync(join(tmpdir(), 'loom-bench-')) : undefined;
  const location = process.env.BENCH_DB ?? join(scratch!, 'bench.db');
  const store = openStore(location);
  const clock = Clock.real();
  const { appId, demoUserId } = await seedGraph(store, { users: 50, seed: 'bench', now: clock.now() });
  const app = (await store.getApps([appId])).get(appId)!;

  let entries = 0;
  let posts = 0;
  let badSignatures = 0;
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const expected = `sha256=${createHmac('sha256', app.secret).update(body).digest('hex')}`;
      if (request.headers['x-hub-signature-256'] !== expected) badSignatures += 1;
      posts += 1;
      entries += (JSON.parse(body) as { entry: unknown[] }).entry.length;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await store.webhooks.saveSubscription({ appId, object: 'user', callbackUrl, fields: ['feed'], verifyToken: '', active: true, createdTime: clock.now() });

  // The outbox as a burst of writes would leave it, in batches of 500.
  for (let written = 0; written < CHANGES; written += 500) {
    const ops: WriteOp[] = Array.from({ length: Math.min(500, CHANGES - written) }, () => ({ op: 'recordChange', subject: demoUserId, field: 'feed', time: clock.now() }));
    await store.write(ops);
  }

  const worker = new DeliveryWorker(store, clock, { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: true, windowMs: 10 });
  const started = performance.now();
  worker.start();
  while (entries < CHANGES) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  receiver.close();
  await store.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });

  console.log(`${CHANGES} changes on ${location.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}: ${entries} entries in ${posts} signed POSTs in ${seconds.toFixed(2)} s`);
  console.log(`webhook notifications delivered: ${(entries / seconds).toFixed(0)} entries/s (${(posts / seconds).toFixed(1)} POSTs/s), ${badSignatures} bad signatures`);
  if (badSignatures > 0) process.exitCode = 1;
}

await main();
