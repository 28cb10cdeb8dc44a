/**
 * Fuzz: 60,000 random requests (bench/fuzz-requests.ts) against Loom through keep-alive
 * connections, as SDKs reuse them. Counts the answers by status, error answers outside the Graph
 * envelope, server errors (5xx) and connection failures: a reset, or a socket hung up under a
 * request. Exits with 1 unless the last three are all 0.
 *
 *   npm run fuzz                                  # a scratch demo graph, served for the run
 *   npm run fuzz -- --requests 5000 --concurrency 16 --seed other
 *   npm run fuzz -- --url http://127.0.0.1:8080 --token TOKEN   # a server already running
 */
import { parseArgs } from 'node:util';
import { runFuzz } from './fuzz-client.js';
import type { FuzzTarget } from './fuzz-requests.js';
import { startScratchLoom } from './scratch-loom.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '60000' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: 'fuzz' },
    url: { type: 'string' },
    token: { type: 'string' },
  },
});

/** Ids the token can read (the user, friends, posts, photos), so paths reach real objects. */
async function discoverTarget(base: string, token: string): Promise<FuzzTarget> {
  const read = async (path: string): Promise<string[]> => {
    const response = await fetch(`${base}/v2.4/${path}${path.includes('?') ? '&' : '?'}access_token=${token}`);
    const body = (await response.json()) as { id?: string; data?: { id: string }[] };
    return body.data ? body.data.map((item) => item.id) : body.id ? [body.id] : [];
  };
  const ids = (await Promise.all(['me?fields=id', 'me/friends?limit=5', 'me/feed?limit=5&fields=id', 'me/photos?type=uploaded&limit=3&fields=id', 'me/albums?limit=2&fields=id'].map(read))).flat();
  if (ids.length === 0) throw new Error(`the token reads nothing at ${base}`);
  return { token, ids };
}

async function main(): Promise<void> {
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  if (!Number.isSafeInteger(requests) || requests <= 0 || !Number.isSafeInteger(concurrency) || concurrency <= 0) {
    throw new Error('--requests and --concurrency take positive whole numbers');
  }
  if ((values.url === undefined) !== (values.token === undefined)) throw new Error('--url and --token go together');
  const scratch = values.url === undefined ? await startScratchLoom('fuzz') : undefined;
  const base = (values.url ?? scratch!.base).replace(/\/+$/, '');
  try {
    const target = await discoverTarget(base, values.token ?? scratch!.token);
    console.log(`Fuzzing ${base}: ${requests.toLocaleString('en-US')} requests, ${concurrency} at a time over keep-alive connections, seed "${values.seed}"`);
    const started = performance.now();
    const counts = await runFuzz(base, target, { requests, concurrency, seed: values.seed });
    const seconds = (performance.now() - started) / 1000;
    const serverErrors = counts.statuses['5xx'] ?? 0;
    const clientErrors = Object.values(counts.errors).reduce((sum, count) => sum + count, 0);
    console.log(`${counts.requests.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s over ${counts.connections} connections (${counts.closing} answers said Connection: close)`);
    console.log(`Answers: ${Object.entries(counts.statuses).sort().map(([key, count]) => `${key} ${count}`).join(', ')}`);
    console.log(`Connection resets (ECONNRESET, socket hang up, EPIPE): ${counts.resets}`);
    console.log(`Other client errors: ${clientErrors}${clientErrors ? ` ${JSON.stringify(counts.errors)}` : ''}`);
    console.log(`Server errors (5xx): ${serverErrors}; error answers outside the Graph envelope: ${counts.outsideEnvelope}`);
    for (const example of counts.examples) console.log(`  ${example}`);
    const passed = counts.resets === 0 && clientErrors === 0 && serverErrors === 0 && counts.outsideEnvelope === 0;
    console.log(passed ? 'PASS' : 'FAIL');
    process.exitCode = passed ? 0 : 1;
  } finally {
    await scratch?.stop();
  }
}

await main();
