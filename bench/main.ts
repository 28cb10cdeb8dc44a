/**
 * `npm run bench`: Loom against a bare Fastify hello route and json-server, each served by its
 * own process and driven by autocannon in another, pinned to separate cores where `taskset`
 * exists. Prints requests per second and the ratio to Fastify hello measured in the same round
 * (machine speed cancels out of a ratio), and writes bench/results/latest.md and latest.svg.
 * Every load is preceded by an unmeasured warm-up of the same requests, so every server is
 * measured with its code compiled by the JIT rather than while it compiles.
 * Then runs the webhook benchmark (bench/webhooks.ts), which measures deliveries, not requests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareDataset, type Dataset } from './dataset.js';
import { isolation, ISOLATION } from './isolation.js';
import { canPin, cpuSeconds, freePort, runLoad, settle, startServer, type Server } from './processes.js';
import { markdownTable, median, svgChart, type CaseResult } from './report.js';
import { createDatabase, dropDatabase } from './scratch-databases.js';

const help = `Usage: npm run bench -- [--quick] [--rounds N] [--seconds S] [--warmup S] [--users N] [--likes N]
                        [--connections N] [--postgres URL] [--cpu] [--only TEXT] [--reset-users N]

  --quick          one round of 3 s per case on 300 people and a post with 100,000 likes
  --rounds N       rounds over every case (default 3); the table shows the median
  --seconds S      seconds of measured load per case and round (default 5)
  --warmup S       before each measured load, the same requests unmeasured until the server
                   has spent S CPU seconds on them (default 2; at most 10×S seconds of load),
                   for every server alike, so that all are measured warm
  --users N        people in the seeded graph (default 2000)
  --likes N        likes of the much-liked post (default 1000000)
  --connections N  concurrent connections of the load generator (default 50)
  --postgres URL   a PostgreSQL server (default: $LOOM_BENCH_PG); the benchmark creates and
                   drops its own database there. Without one the PostgreSQL rows are skipped.
  --cpu            rates per CPU second of the server process instead of per second
  --only TEXT      only the cases whose name holds TEXT (Fastify hello always runs); the files
                   of the last full run are left alone. One of "${ISOLATION}"
                   runs the test isolation table alone
  --reset-users N  people in the large graph of the test isolation table (default 20000)

Then the test isolation table: POST /_loom/reset and a snapshot restore after 10 writes (median
of five) on the demo graph and on the large one, SQLite and, with --postgres, PostgreSQL; the large
graph's time over the demo graph's; and the time startLoom() takes to serve.

Rows marked (repeated) ask the same URL every time, which a cache of whole answers would serve;
rows marked (a different person each request) never ask a URL twice (their note says so, or how
often the list went round), so they measure the work of answering.
`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const SERVER_CORE = 0;
const LOAD_CORE = 1;
/** A warm-up ends after this many times its CPU seconds of wall time, done or not. */
const WARMUP_LIMIT = 10;
const BATCH_SIZE = 50;
const BATCH = `batch of ${BATCH_SIZE} GET /me`;
const NESTED = 'posts.limit(25){created_time,likes.limit(5){name},comments.limit(0).summary(true)}';
const NESTED_NAME = 'GET /me?fields=posts.limit(25){…} (nested)';

/** A request asked the same every time, or a different one each time from a list (load.ts). */
interface Case {
  name: string;
  server: 'hello' | 'loom' | 'json-server' | 'postgres';
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** The file of values that take the place of `{}` in `path`, one per request. */
  rotate?: string;
  opsPerRequest?: number;
  goal?: string;
}

const REPEATED = '(repeated)';
/** A URL never asked before, of a person other than the request before's (a token of theirs). */
const DIFFERENT = '(a different person each request)';

function cases(data: Dataset, batchAvailable: boolean): Case[] {
  const token = `access_token=${data.accessToken}`;
  const batch = JSON.stringify(Array.from({ length: BATCH_SIZE }, () => ({ method: 'GET', relative_url: 'me?fields=id,name' })));
  const person = { path: `/v2.4/{}?fields=id,name&${token}`, rotate: data.peopleFile };
  const me = { path: '/v2.4/me?fields=id,name&access_token={}', rotate: data.readerTokensFile };
  const friends = { path: '/v2.4/me/friends?limit=25&access_token={}', rotate: data.readerTokensFile };
  const nested = { path: `/v2.4/me?fields=${encodeURIComponent(NESTED)}&access_token={}`, rotate: data.readerTokensFile };
  // The goals are on the rows that never ask a URL twice: the work of answering, not a cache's.
  const list: Case[] = [
    { name: `GET /me?fields=id,name ${REPEATED}`, server: 'loom', path: `/v2.4/me?fields=id,name&${token}` },
    { name: `GET /me?fields=id,name ${DIFFERENT}`, server: 'loom', ...me, goal: '≥ 0.30' },
    { name: `GET /<id>?fields=id,name (a different id each request)`, server: 'loom', ...person },
    { name: `GET /me/friends?limit=25 ${REPEATED}`, server: 'loom', path: `/v2.4/me/friends?limit=25&${token}` },
    { name: `GET /me/friends?limit=25 ${DIFFERENT}`, server: 'loom', ...friends, goal: '≥ 0.12' },
    { name: `${NESTED_NAME} ${REPEATED}`, server: 'loom', path: `/v2.4/me?fields=${encodeURIComponent(NESTED)}&${token}` },
    { name: `${NESTED_NAME} ${DIFFERENT}`, server: 'loom', ...nested, goal: '≥ 0.06' },
    { name: `25 likes of a post with many likes ${REPEATED}`, server: 'loom', path: `/v2.4/${data.manyLikesPost}/likes?limit=25&${token}` },
    { name: `25 likes of a post with 100 likes ${REPEATED}`, server: 'loom', path: `/v2.4/${data.fewLikesPost}/likes?limit=25&${token}` },
    { name: 'POST /me/feed', server: 'loom', path: '/v2.4/me/feed', method: 'POST', body: `message=benchmark&access_token=${data.writerToken}` },
  ];
  if (batchAvailable) {
    list.push({ name: `${BATCH} (per request, repeated)`, server: 'loom', path: '/v2.4/', method: 'POST', body: `batch=${encodeURIComponent(batch)}&${token}`, opsPerRequest: BATCH_SIZE });
  }
  list.push(
    { name: `json-server GET /people/<id> ${REPEATED}`, server: 'json-server', path: `/people/${data.jsonServerPerson}` },
    { name: `json-server GET /people/<id> (a different id each request)`, server: 'json-server', path: '/people/{}', rotate: data.jsonServerPeopleFile },
    { name: `json-server GET /posts?_limit=25 ${REPEATED}`, server: 'json-server', path: '/posts?_page=1&_limit=25' },
    { name: `PostgreSQL: GET /me?fields=id,name ${REPEATED}`, server: 'postgres', path: `/v2.4/me?fields=id,name&${token}` },
    { name: `PostgreSQL: GET /me?fields=id,name ${DIFFERENT}`, server: 'postgres', ...me },
    { name: `PostgreSQL: GET /me/friends?limit=25 ${REPEATED}`, server: 'postgres', path: `/v2.4/me/friends?limit=25&${token}` },
    { name: `PostgreSQL: GET /me/friends?limit=25 ${DIFFERENT}`, server: 'postgres', ...friends, goal: '≥ 0.06' },
    { name: `PostgreSQL: ${NESTED_NAME} ${DIFFERENT}`, server: 'postgres', ...nested, goal: '≥ 0.03' },
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
      warmup: { type: 'string' },
      postgres: { type: 'string' },
      cpu: { type: 'boolean' },
      only: { type: 'string' },
      'reset-users': { type: 'string' },
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
  const resetUsers = Number(values['reset-users'] ?? (quick ? 2000 : 20_000));
  const warmup = Number(values.warmup ?? 2);
  const byCpu = values.cpu === true;
  const unit = byCpu ? 'req/CPU-s' : 'req/s';
  const postgresServer = values.postgres ?? process.env.LOOM_BENCH_PG;
  for (const [name, value] of Object.entries({ rounds, seconds, users, likes: manyLikes, connections, warmup, 'reset-users': resetUsers })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  }

  // `--only` with a word of the isolation table runs that table alone, without the load data.
  const isolationWanted = values.only === undefined || ISOLATION.includes(values.only);
  const throughputWanted = values.only === undefined || !isolationWanted;
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  log(canPin ? `taskset found: servers pinned to core ${SERVER_CORE}, the load generator to core ${LOAD_CORE}` : 'taskset not found: processes are not pinned');
  const sections: string[] = [];
  let chart: string | undefined;
  if (throughputWanted) {
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
        // A media folder of its own: a folder belongs to one database, and these are two.
        const args = ['serve', '--db', db, '--port', String(port), '--no-demo', '--log', 'off', '--media-dir', join(dir, `media-${port}`)];
        // Started as people start it: bin/loom's first line carries the process's V8 settings.
        return startServer(name, loomBin, args, port, '/v2.4/me', SERVER_CORE);
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

      const batchAvailable = await answersBatch(byName.loom.base, data.accessToken);
      const list = cases(data, batchAvailable).filter((item) => values.only === undefined || item.name.includes(values.only));
      const results = new Map<string, CaseResult>(
        list.map((item) => [item.name, { name: item.name, rates: [], baselines: [], opsPerRequest: item.opsPerRequest ?? 1, goal: item.goal }]),
      );
      /** Values of each rotating case's list used so far: warm-ups and rounds each take fresh ones. */
      const rotated = new Map<string, number>();
      const run = async (server: Server, item: Pick<Case, 'name' | 'path' | 'method' | 'body' | 'rotate'>, duration: number, enough?: () => boolean) => {
        const from = rotated.get(item.name) ?? 0;
        const rotate = item.rotate === undefined ? undefined : { template: item.path, file: item.rotate, from };
        const url = rotate ? server.base : `${server.base}${item.path}`;
        const outcome = await runLoad({ url, seconds: duration, connections, method: item.method, body: item.body, rotate }, LOAD_CORE, enough);
        if (outcome.failures > 0) throw new Error(`${item.name}: ${outcome.failures} failed requests (${outcome.failed || 'timeouts'})`);
        rotated.set(item.name, from + outcome.rotated);
        return outcome;
      };
      /**
       * An unmeasured warm-up, a pause until the server is idle, then the measured load: requests
       * per second, or with --cpu per CPU second of the server. The warm-up lasts until the server
       * has spent `warmup` CPU seconds on the case: the JIT compiles after so much work, not after
       * so much time, and a server that shares its core with other work gets less done in a second.
       */
      const load = async (server: Server, item: Pick<Case, 'name' | 'path' | 'method' | 'body' | 'rotate'>) => {
        const start = cpuSeconds(server.pid);
        await run(server, item, WARMUP_LIMIT * warmup, () => cpuSeconds(server.pid) - start >= warmup);
        await settle(server.pid);
        const before = cpuSeconds(server.pid);
        const outcome = await run(server, item, seconds);
        const used = cpuSeconds(server.pid) - before;
        return byCpu ? outcome.requests / used : outcome.requestsPerSecond;
      };
      for (let round = 1; round <= rounds; round++) {
        log(`round ${round} of ${rounds}`);
        const hello = await load(byName.hello, { name: 'Fastify hello', path: '/hello' });
        log(`  Fastify hello: ${hello.toFixed(0)} ${unit}`);
        for (const item of list) {
          const server = byName[item.server];
          if (!server) continue;
          const rate = await load(server, item);
          const result = results.get(item.name)!;
          result.rates.push(rate);
          result.baselines.push(hello);
          log(`  ${item.name}: ${rate.toFixed(0)} ${unit} (${(rate / hello).toFixed(3)})`);
        }
      }
      for (const item of list) {
        if (item.rotate === undefined || !rotated.has(item.name)) continue;
        const length = lineCount(item.rotate);
        const used = rotated.get(item.name)!;
        results.get(item.name)!.note = used <= length ? 'no URL asked twice' : `${length} URLs, each asked up to ${Math.ceil(used / length)} times`;
      }

      const all = [...results.values()];
      if (!batchAvailable) all.push({ name: BATCH, rates: [], baselines: [], opsPerRequest: BATCH_SIZE, note: 'this build has no batch requests' });
      for (const result of all) if (result.name.startsWith('PostgreSQL') && !postgresUrl) result.note = 'no --postgres URL given';
      const rate = (name: string) => {
        const result = all.find((item) => item.name === name);
        return result && result.rates.length > 0 ? median(result.rates) * result.opsPerRequest : undefined;
      };
      const over = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b);
      const comparisons: Array<[string, number | undefined, string]> = [
        ['Loom /me over json-server /people/<id>, repeated', over(rate(`GET /me?fields=id,name ${REPEATED}`), rate(`json-server GET /people/<id> ${REPEATED}`)), '≥ 5×'],
        ['Loom /<id> over json-server /people/<id>, a different id each request', over(rate('GET /<id>?fields=id,name (a different id each request)'), rate('json-server GET /people/<id> (a different id each request)')), ''],
        ['Loom friends page over json-server 25-item page, repeated', over(rate(`GET /me/friends?limit=25 ${REPEATED}`), rate(`json-server GET /posts?_limit=25 ${REPEATED}`)), '≥ 20×'],
        [`cost of a page of ${manyLikes.toLocaleString('en')} likes over one of 100`, over(rate(`25 likes of a post with 100 likes ${REPEATED}`), rate(`25 likes of a post with many likes ${REPEATED}`)), '≤ 1.2×'],
        [`batch operations/s over single /me requests/s`, over(rate(`${BATCH} (per request, repeated)`), rate(`GET /me?fields=id,name ${REPEATED}`)), '≥ 1.5×'],
      ];
      const header = [
        `# Loom benchmark`,
        '',
        `${new Date().toISOString().slice(0, 16)}Z, ${rounds} round(s) of ${seconds} s per case, each after a warm-up of ${warmup} CPU second(s) of the server, ${connections} connections (autocannon), ` +
          `${users} people, a post with ${manyLikes.toLocaleString('en')} likes; ` +
          (canPin ? `servers pinned to core ${SERVER_CORE}, load generator to core ${LOAD_CORE} (taskset).` : 'not pinned (no taskset).'),
        byCpu
          ? 'Rates are requests per CPU second of the server process (--cpu); each ratio is over the same figure of a bare Fastify hello route.'
          : 'Each ratio is the rate over the rate of a bare Fastify hello route measured in the same round.',
        '(repeated): the same URL every time, which a cache of whole answers would serve; ' +
          '(a different person each request): a URL of its own per request, so the work of answering.',
      ].join('\n');
      const table = markdownTable(all, comparisons, header, unit);
      process.stdout.write(`\n${table}`);
      sections.push(table);
      chart = svgChart(all);
    } finally {
      for (const server of servers) await server.stop();
      rmSync(dir, { recursive: true, force: true });
      if (postgresServer && postgresUrl) await dropDatabase(postgresServer, postgresUrl);
    }
  }
  if (isolationWanted) {
    const table = await isolation({ root, postgresServer, users: resetUsers, core: SERVER_CORE, log });
    process.stdout.write(`\n${table}`);
    sections.push(table);
  }
  // A partial run leaves the files of the last complete one in place.
  if (values.only === undefined) {
    const out = join(root, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'latest.md'), sections.join('\n'));
    if (chart !== undefined) writeFileSync(join(out, 'latest.svg'), chart);
    log(`wrote bench/results/latest.md and bench/results/latest.svg`);
  }
  // A process of its own, as `npm run bench:webhooks` runs it: its figures print after the table.
  log('webhook deliveries (npm run bench:webhooks)');
  execFileSync(process.execPath, [join(root, 'dist', 'bench', 'webhooks.js')], { stdio: 'inherit' });
}

function lineCount(file: string): number {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').length;
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

await main();
