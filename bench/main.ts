/**
 * `npm run bench`: Loom against a bare Fastify hello route and json-server, each served by its
 * own process and driven by autocannon in another, pinned to separate cores where `taskset`
 * exists. Prints requests per second and the ratio to Fastify hello measured in the same round
 * (machine speed cancels out of a ratio), and writes bench/results/latest.md and latest.svg.
 * Then runs the webhook benchmark (bench/webhooks.ts), which measures deliveries, not requests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { prepareDataset, type Dataset } from './dataset.js';
import { canPin, cpuSeconds, freePort, runLoad, startServer, type Server } from './processes.js';
import { markdownTable, median, svgChart, type CaseResult } from './report.js';

const help = `Usage: npm run bench -- [--quick] [--rounds N] [--seconds S] [--users N] [--likes N]
                        [--connections N] [--postgres URL] [--cpu] [--only TEXT]

  --quick          one round of 3 s per case on 300 people and a post with 100,000 likes
  --rounds N       rounds over every case (default 3); the table shows the median
  --seconds S      seconds of load per case and round (default 5)
  --users N        people in the seeded graph (default 2000)
  --likes N        likes of the much-liked post (default 1000000)
  --connections N  concurrent connections of the load generator (default 50)
  --postgres URL   a PostgreSQL server (default: $LOOM_BENCH_PG); the benchmark creates and
                   drops its own database there. Without one the PostgreSQL row is skipped.
`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const SERVER_CORE = 0;
const LOAD_CORE = 1;
const BATCH_SIZE = 50;
const NESTED = 'posts.limit(25){created_time,likes.limit(5){name},comments.limit(0).summary(true)}';

interface Case {
  name: string;
  server: 'hello' | 'loom' | 'json-server' | 'postgres';
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  opsPerRequest?: number;
  goal?: string;
}

function cases(data: Dataset, batchAvailable: boolean): Case[] {
  const token = `access_token=${data.accessToken}`;
  const batch = JSON.stringify(Array.from({ length: BATCH_SIZE }, () => ({ method: 'GET', relative_url: 'me?fields=id,name' })));
  const list: Case[] = [
    { name: 'GET /me?fields=id,name', server: 'loom', path: `/v2.4/me?fields=id,name&${token}`, goal: '≥ 0.40' },
    { name: 'GET /me/friends?limit=25', server: 'loom', path: `/v2.4/me/friends?limit=25&${token}`, goal: '≥ 0.20' },
    { name: 'GET /me?fields=posts.limit(25){…} (nested)', server: 'loom', path: `/v2.4/me?fields=${encodeURIComponent(NESTED)}&${token}`, goal: '≥ 0.05' },
    { name: '25 likes of a post with many likes', server: 'loom', path: `/v2.4/${data.manyLikesPost}/likes?limit=25&${token}` },
    { name: '25 likes of a post with 100 likes', server: 'loom', path: `/v2.4/${data.fewLikesPost}/likes?limit=25&${token}` },
    { name: 'POST /me/feed', server: 'loom', path: '/v2.4/me/feed', method: 'POST', body: `message=benchmark&access_token=${data.writerToken}` },
  ];
  if (batchAvailable) {
    list.push({ name: `batch of ${BATCH_SIZE} GET /me (per request)`, server: 'loom', path: '/v2.4/', method: 'POST', body: `batch=${encodeURIComponent(batch)}&${token}`, opsPerRequest: BATCH_SIZE });
  }
  list.push(
    { name: 'json-server GET /people/<id>', server: 'json-server', path: `/people/${data.jsonServerPerson}` },
    { name: 'json-server GET /posts?_limit=25', server: 'json-server', path: '/posts?_page=1&_limit=25' },
    { name: 'PostgreSQL: GET /me?fields=id,name', server: 'postgres', path: `/v2.4/me?fields=id,name&${token}`, goal: '≥ 0.06' },
    { name: 'PostgreSQL: GET /me/friends?limit=25', server: 'postgres', path: `/v2.4/me/friends?limit=25&${token}`, goal: '≥ 0.03' },
  );
  return list;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      users: { type: 'string' },
      likes: { type: 'string' },
      connections: { type: 'string' },
      postgres: { type: 'string' },
      cpu: { type: 'boolean' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void process.stdout.write(help);
  const quick = values.quick === true;
  const rounds = Number(values.rounds ?? (quick ? 1 : 3));
  const seconds = Number(values.seconds ?? (quick ? 3 : 5));
  const users = Number(values.users ?? (quick ? 300 : 2000));
  const manyLikes = Number(values.likes ?? (quick ? 100_000 : 1_000_000));
  const connections = Number(values.connections ?? 50);
  const byCpu = values.cpu === true;
  const unit = byCpu ? 'req/CPU-s' : 'req/s';
  const postgresServer = values.postgres ?? process.env.LOOM_BENCH_PG;
  for (const [name, value] of Object.entries({ rounds, seconds, users, likes: manyLikes, connections })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  }

  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  log(canPin ? `taskset found: servers pinned to core ${SERVER_CORE}, the load generator to core ${LOAD_CORE}` : 'taskset not found: processes are not pinned');
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  const postgresUrl = postgresServer ? await createDatabase(postgresServer) : undefined;
  const servers: Server[] = [];
  try {
    const data = await prepareDataset(dir, { users, manyLikes, postgresUrl }, log);
    log('starting the servers…');
    const loomBin = join(root, 'bin', 'loom');
    const serve = async (name: string, db: string) => {
      const port = await freePort();
      // No request log, like the other servers measured: the table compares answering, not logging.
      const args = [loomBin, 'serve', '--db', db, '--port', String(port), '--no-demo', '--log', 'off', '--media-dir', join(dir, 'media')];
      return startServer(name, process.execPath, args, port, '/v2.4/me', SERVER_CORE);
    };
    const byName: Record<string, Server> = {};
    const helloPort = await freePort();
    byName.hello = await startServer('Fastify hello', process.execPath, [join(root, 'dist', 'bench', 'fastify-hello.js'), String(helloPort)], helloPort, '/hello', SERVER_CORE);
    byName.loom = await serve('Loom (SQLite)', data.sqlitePath);
    const jsonPort = await freePort();
    const jsonServer = require.resolve('json-server/lib/cli/bin.js');
    byName['json-server'] = await startServer('json-server', process.execPath, [jsonServer, '--quiet', '--port', String(jsonPort), data.jsonServerFile], jsonPort, '/posts?_limit=1', SERVER_CORE);
    if (postgresUrl) byName.postgres = await serve('Loom (PostgreSQL)', postgresUrl);
    servers.push(...Object.values(byName));

    const batchAvailable = await answersBatch(byName.loom!.base, data.accessToken);
    const list = cases(data, batchAvailable).filter((item) => values.only === undefined || item.name.includes(values.only));
    const results = new Map<string, CaseResult>(
      list.map((item) => [item.name, { name: item.name, rates: [], baselines: [], opsPerRequest: item.opsPerRequest ?? 1, goal: item.goal }]),
    );
    const autocannon = require.resolve('autocannon/autocannon.js');
    /** Requests per second, or with --cpu per CPU second of the server. */
    const load = async (server: Server, item: Pick<Case, 'path' | 'method' | 'body'>) => {
      const before = cpuSeconds(server.pid);
      const outcome = await runLoad(autocannon, { url: `${server.base}${item.path}`, seconds, connections, method: item.method, body: item.body, core: LOAD_CORE });
      const used = cpuSeconds(server.pid) - before;
      return byCpu ? { ...outcome, requestsPerSecond: outcome.requests / used } : outcome;
    };
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round} of ${rounds}`);
      const hello = await load(byName.hello!, { path: '/hello' });
      log(`  Fastify hello: ${hello.requestsPerSecond.toFixed(0)} ${unit}`);
      for (const item of list) {
        const server = byName[item.server];
        if (!server) continue;
        const outcome = await load(server, item);
        if (outcome.failures > 0) throw new Error(`${item.name}: ${outcome.failures} failed requests`);
        const result = results.get(item.name)!;
        result.rates.push(outcome.requestsPerSecond);
        result.baselines.push(hello.requestsPerSecond);
        log(`  ${item.name}: ${outcome.requestsPerSecond.toFixed(0)} ${unit} (${(outcome.requestsPerSecond / hello.requestsPerSecond).toFixed(3)})`);
      }
    }

    const all = [...results.values()];
    if (!batchAvailable) all.push({ name: `batch of ${BATCH_SIZE} GET /me`, rates: [], baselines: [], opsPerRequest: BATCH_SIZE, note: 'this build has no batch requests' });
    for (const result of all) if (result.name.startsWith('PostgreSQL') && !postgresUrl) result.note = 'no --postgres URL given';
    const rate = (name: string) => {
      const result = all.find((item) => item.name === name);
      return result && result.rates.length > 0 ? median(result.rates) * result.opsPerRequest : undefined;
    };
    const over = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);
    const comparisons: Array<[string, number | undefined, string]> = [
      ['Loom /me over json-server /people/<id>', over(rate('GET /me?fields=id,name'), rate('json-server GET /people/<id>')), '≥ 5×'],
      ['Loom friends page over json-server 25-item page', over(rate('GET /me/friends?limit=25'), rate('json-server GET /posts?_limit=25')), '≥ 20×'],
      [`cost of a page of ${manyLikes.toLocaleString('en')} likes over one of 100`, over(rate('25 likes of a post with 100 likes'), rate('25 likes of a post with many likes')), '≤ 1.2×'],
      [`batch operations/s over single /me requests/s`, over(rate(`batch of ${BATCH_SIZE} GET /me (per request)`), rate('GET /me?fields=id,name')), '≥ 1.5×'],
    ];
    const header = [
      `# Loom benchmark`,
      '',
      `${new Date().toISOString().slice(0, 16)}Z, ${rounds} round(s) of ${seconds} s per case, ${connections} connections (autocannon), ` +
        `${users} people, a post with ${manyLikes.toLocaleString('en')} likes; ` +
        (canPin ? `servers pinned to core ${SERVER_CORE}, load generator to core ${LOAD_CORE} (taskset).` : 'not pinned (no taskset).'),
      byCpu
        ? 'Rates are requests per CPU second of the server process (--cpu); each ratio is over the same figure of a bare Fastify hello route.'
        : 'Each ratio is the rate over the rate of a bare Fastify hello route measured in the same round.',
    ].join('\n');
    const table = markdownTable(all, comparisons, header, unit);
    process.stdout.write(`\n${table}`);
    // A partial run leaves the full table of the last complete one in place.
    if (values.only !== undefined) return;
    const out = join(root, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'latest.md'), table);
    writeFileSync(join(out, 'latest.svg'), svgChart(all));
    log(`wrote bench/results/latest.md and bench/results/latest.svg`);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
    if (postgresServer && postgresUrl) await dropDatabase(postgresServer, postgresUrl);
  }
  // A process of its own, as `npm run bench:webhooks` runs it: its figures print after the table.
  log('webhook deliveries (npm run bench:webhooks)');
  execFileSync(process.execPath, [join(root, 'dist', 'bench', 'webhooks.js')], { stdio: 'inherit' });
}

/** Whether this build answers a batch of operations at `POST /` with one result per operation. */
async function answersBatch(base: string, token: string): Promise<boolean> {
  const batch = JSON.stringify([{ method: 'GET', relative_url: 'me?fields=id' }]);
  const response = await fetch(`${base}/v2.4/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ batch, access_token: token }).toString(),
  });
  const body = (await response.json()) as unknown;
  return response.status === 200 && Array.isArray(body) && body.length === 1;
}

async function createDatabase(server: string): Promise<string> {
  const name = `loom_bench_${process.pid}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(server: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

await main();
