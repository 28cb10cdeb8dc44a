/** Starting the servers under test and the load generator, each in its own process. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** `taskset` pins a process to one core, so the server and the load generator never share one. */
export const canPin = spawnSync('taskset', ['-V']).status === 0;

export function pinned(core: number | undefined, command: string, args: string[]): [string, string[]] {
  return canPin && core !== undefined ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Server {
  name: string;
  base: string;
  /** The server's process (taskset execs it in place, so the same id). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts a server process and resolves once `probe` answers (any HTTP status). */
export async function startServer(name: string, command: string, args: string[], port: number, probe: string, core?: number): Promise<Server> {
  const [file, argv] = pinned(core, command, args);
  const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOOM_TOKEN_LIFETIME: undefined } });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before serving:\n${errors}`);
    try {
      await fetch(`${base}${probe}`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not answer within two minutes:\n${errors}`);
      await sleep(200);
    }
  }
  return { name, base, pid: child.pid!, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

export interface LoadOptions {
  url: string;
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  /** A form body. */
  body?: string;
  core?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in all. */
  requests: number;
  /** Answers that were not 2xx, plus socket errors and timeouts. */
  failures: number;
}

/** Drives one URL with autocannon, run as its own process, and reads its JSON summary. */
export function runLoad(autocannon: string, options: LoadOptions): Promise<LoadResult> {
  const args = [autocannon, '-j', '-c', String(options.connections), '-d', String(options.seconds), '-m', options.method ?? 'GET'];
  if (options.body !== undefined) args.push('-H', 'content-type=application/x-www-form-urlencoded', '-b', options.body);
  args.push(options.url);
  const [file, argv] = pinned(options.core, process.execPath, args);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon failed (${code}): ${err}`));
      const summary = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number };
      resolve({ requestsPerSecond: summary.requests.average, requests: summary.requests.total, failures: summary.non2xx + summary.errors + summary.timeouts });
    });
  });
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * CPU seconds a process has used so far, in user and kernel mode, over all its threads. What a
 * server spends per request this way does not depend on what else the machine runs, unlike
 * requests per second.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
