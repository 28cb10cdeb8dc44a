/** Starting the servers under test and the load generator, each in its own process. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { LoadSpec, LoadSummary } from './load.js';

const LOAD_GENERATOR = fileURLToPath(new URL('./load.js', import.meta.url));

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
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
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

/**
 * Runs the load generator (load.ts) as a process of its own, pinned to `core`, and reads its
 * summary. With `enough`, asked ten times a second, the load ends as soon as that holds.
 */
export function runLoad(spec: LoadSpec, core?: number, enough?: () => boolean): Promise<LoadSummary> {
  const [file, argv] = pinned(core, process.execPath, [LOAD_GENERATOR, JSON.stringify(spec)]);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const poll = setInterval(() => {
      if (enough?.()) {
        clearInterval(poll);
        child.kill('SIGTERM');
      }
    }, 100);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`the load generator failed (${code}): ${err}`));
      resolve(JSON.parse(out) as LoadSummary);
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

/**
 * Waits until the process has used no CPU for a while (at most `limit` ms): requests left over
 * from a load that has ended, or garbage collection after it, are then not counted in the next.
 */
export async function settle(pid: number, limit = 5000): Promise<void> {
  const deadline = Date.now() + limit;
  let last = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await sleep(200);
    const now = cpuSeconds(pid);
    if (now === last) return;
    last = now;
  }
}
