/**
 * The cost of isolating tests from each other: `POST /_loom/reset` and a snapshot restore after
 * ten writes, on the demo graph and on a large one, each served by `bin/loom serve` in its own
 * process. A reset should cost what the test wrote, not the size of the graph, so the large
 * graph's time is given over the demo graph's, measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, freePort, pinned, settle, startServer } from './processes.js';
import { median } from './report.js';
import { createDatabase, dropDatabase } from './scratch-databases.js';

/** The words `--only` takes for this table alone. */
export const ISOLATION = 'isolation, reset, restore, startLoom';

/** Writes made before each reset or restore. */
const WRITES = 10;
/** Resets (and restores) timed per graph; the table shows the median. */
const TIMES = 5;
const SNAPSHOT = 'bench-isolation';

interface IsolationGraph {
  /** `demo` or `N people`. */
  label: string;
  /** A SQLite file or a PostgreSQL URL, empty. */
  db: string;
  /** People to seed; the demo graph when absent. */
  users?: number;
}

interface IsolationTimes {
  store: string;
  graph: string;
  /** Median milliseconds of a reset after the writes. */
  reset: number;
  /** Median milliseconds of a snapshot restore after the writes. */
  restore: number;
  /** Mean CPU milliseconds of the server per reset and per restore, which other load on the machine hardly moves. */
  resetCpu: number;
  restoreCpu: number;
}

interface Context {
  root: string;
  dir: string;
  core: number | undefined;
  log: (line: string) => void;
}

export interface IsolationOptions {
  root: string;
  /** A PostgreSQL server to make databases on; SQLite alone without. */
  postgresServer: string | undefined;
  /** People in the large graph. */
  users: number;
  core: number | undefined;
  log: (line: string) => void;
}

/** Measures everything the table shows and gives the table. */
export async function isolation(options: IsolationOptions): Promise<string> {
  const { postgresServer, users } = options;
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-isolation-'));
  const context = { ...options, dir };
  const created: string[] = [];
  try {
    const large = `${users.toLocaleString('en')} people`;
    const times = [
      await measureIsolation('SQLite', { label: 'demo', db: join(dir, 'demo.db') }, context),
      await measureIsolation('SQLite', { label: large, db: join(dir, 'large.db'), users }, context),
    ];
    if (postgresServer) {
      for (const [suffix, graph] of [['_demo', { label: 'demo' }], ['_large', { label: large, users }]] as const) {
        const db = await createDatabase(postgresServer, suffix);
        created.push(db);
        times.push(await measureIsolation('PostgreSQL', { ...graph, db }, context));
      }
    }
    return isolationTable(times, startLoomTime(context));
  } finally {
    for (const db of created) await dropDatabase(postgresServer!, db);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median milliseconds of `startLoom({ demo: true })` in a fresh process, after one unmeasured start. */
function startLoomTime(context: Context): number {
  const [file, args] = pinned(context.core, process.execPath, [join(context.root, 'dist', 'bench', 'start-loom-time.js')]);
  // Its seeding notice goes nowhere; a failure's message comes with the error.
  const once = () => Number(execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim());
  once();
  const times = Array.from({ length: TIMES }, once);
  context.log(`  startLoom(): ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  return median(times);
}

/** Seeds `graph`, serves it, and times resets and restores. */
async function measureIsolation(store: string, graph: IsolationGraph, context: Context): Promise<IsolationTimes> {
  const loom = join(context.root, 'bin', 'loom');
  const run = (...args: string[]) => execFileSync(process.execPath, [loom, ...args], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
  context.log(`${store}: seeding the ${graph.label} graph for the reset times…`);
  run('seed', '--db', graph.db, ...(graph.users === undefined ? [] : ['--users', String(graph.users)]));
  // Issued before the server starts, so the token is part of the state every reset returns to.
  const token = run('token', '--db', graph.db).trim();
  const port = await freePort();
  const args = [loom, 'serve', '--db', graph.db, '--port', String(port), '--no-demo', '--log', 'off', '--media-dir', join(context.dir, `media-${port}`)];
  const server = await startServer(`Loom (${store}, ${graph.label})`, process.execPath, args, port, '/v2.4/me', context.core);
  try {
    let written = 0;
    const writeSome = async () => {
      for (let index = 0; index < WRITES; index++) {
        const body = new URLSearchParams({ message: `isolation probe ${++written}`, access_token: token });
        await expectOk(await fetch(`${server.base}/v2.4/me/feed`, { method: 'POST', body }), 'a write');
      }
    };
    /** The server's CPU seconds spent on the timed calls alone (the writes before each left out). */
    let cpu = 0;
    const timed = async (path: string, body: unknown) => {
      await writeSome();
      await settle(server.pid, 1000);
      const before = cpuSeconds(server.pid);
      const start = performance.now();
      const response = await fetch(`${server.base}/_loom${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await expectOk(response, path);
      const ms = performance.now() - start;
      await settle(server.pid, 1000);
      cpu += cpuSeconds(server.pid) - before;
      return ms;
    };
    const cpuOfEach = () => {
      const each = (cpu * 1000) / TIMES;
      cpu = 0;
      return each;
    };
    // One unmeasured round of each, so the server is measured with its code compiled.
    await timed('/reset', {});
    cpu = 0;
    const resets: number[] = [];
    for (let round = 0; round < TIMES; round++) resets.push(await timed('/reset', {}));
    const resetCpu = cpuOfEach();
    await expectOk(await fetch(`${server.base}/_loom/snapshots`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: SNAPSHOT }) }), 'a snapshot');
    const restore = `/snapshots/${SNAPSHOT}/restore`;
    await timed(restore, {});
    cpu = 0;
    const restores: number[] = [];
    for (let round = 0; round < TIMES; round++) restores.push(await timed(restore, {}));
    const times = { store, graph: graph.label, reset: median(resets), restore: median(restores), resetCpu, restoreCpu: cpuOfEach() };
    context.log(`  ${store}, ${graph.label}: reset ${times.reset.toFixed(1)} ms (server CPU ${resetCpu.toFixed(0)} ms), restore ${times.restore.toFixed(1)} ms`);
    return times;
  } finally {
    await server.stop();
  }
}

async function expectOk(response: Response, what: string): Promise<void> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
}

/** A Markdown table of the times, each large graph's over the demo graph's of the same store. */
function isolationTable(times: readonly IsolationTimes[], startLoomMs: number | undefined): string {
  const lines = [
    `## Test isolation`,
    '',
    `Milliseconds, median of ${TIMES}, each after ${WRITES} writes (\`POST /me/feed\`), timed by the client over HTTP; ` +
      'and the server\'s own CPU milliseconds per call (mean, from /proc, in ticks of the kernel), which a busy machine hardly moves.',
    '',
    '| Store | Operation | graph | ms (median) | over the demo graph | server CPU ms | goal |',
    '|---|---|---|---:|---:|---:|---|',
  ];
  for (const item of times) {
    const demo = times.find((other) => other.store === item.store && other.graph === 'demo');
    for (const [operation, ms, demoMs, cpu] of [
      ['`POST /_loom/reset`', item.reset, demo?.reset, item.resetCpu],
      ['snapshot restore', item.restore, demo?.restore, item.restoreCpu],
    ] as const) {
      const isDemo = item === demo;
      const over = isDemo || demoMs === undefined ? '' : `${(ms / demoMs).toFixed(2)}×`;
      lines.push(`| ${item.store} | ${operation} | ${item.graph} | ${ms.toFixed(1)} | ${over} | ${cpu.toFixed(0)} | ${isDemo ? '≤ 15 ms' : '≤ 2× the demo graph'} |`);
    }
  }
  if (startLoomMs !== undefined) {
    lines.push('', '| Start | ms (median) | goal |', '|---|---:|---|', `| \`startLoom({ demo: true })\` until it serves | ${startLoomMs.toFixed(0)} | < 1000 |`);
  }
  return `${lines.join('\n')}\n`;
}
