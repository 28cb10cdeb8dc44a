import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { PATIENCE_MS } from './patience.js';

export const LOOM = 'bin/loom';

export interface LoomRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the loom command to completion; LOOM_DB is cleared so only the flags choose the database. */
export function loom(...args: string[]): LoomRun {
  return loomWithEnv({}, ...args);
}

/** As `loom`, with these environment variables set as well. */
export function loomWithEnv(env: NodeJS.ProcessEnv, ...args: string[]): LoomRun {
  const result = spawnSync(process.execPath, [LOOM, ...args], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '', ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RunningLoom {
  /** Everything the process wrote to standard output so far. */
  stdout(): string;
  /** Everything the process wrote to standard error so far. */
  stderr(): string;
  /** Everything the process wrote to standard output and standard error so far, as it came. */
  output(): string;
  /** Settles once the process ended and its output is read. */
  exited: Promise<LoomRun>;
  /** Sends SIGTERM and settles once the process ended. */
  stop(): Promise<LoomRun>;
}

/** Starts the loom command without waiting for it; LOOM_DB is cleared as for `loom`. */
export function spawnLoom(...args: string[]): RunningLoom {
  return spawnLoomWithEnv({}, ...args);
}

/** As `spawnLoom`, with these environment variables set as well. */
export function spawnLoomWithEnv(env: NodeJS.ProcessEnv, ...args: string[]): RunningLoom {
  const child = spawn(process.execPath, [LOOM, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOOM_DB: '', ...env } });
  let [stdout, stderr, output] = ['', '', ''];
  child.stdout.on('data', (chunk) => ((stdout += chunk), (output += chunk)));
  child.stderr.on('data', (chunk) => ((stderr += chunk), (output += chunk)));
  const exited = new Promise<LoomRun>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Ports below the range the system hands out on its own (32768 and up on Linux, 49152 and up on
 * macOS and Windows). A port the system chose would be free only until it chose it again, for
 * another test's server listening on port 0 or for an outgoing connection, and a `loom serve`
 * that seeds before it listens leaves it seconds to do so. Here only another call of freePort
 * may pick it, one chance in 12,000 for each call.
 */
const OWN_PORTS = { first: 20_000, count: 12_000 };

/** A port nothing listens on right now, and which the system does not give out on its own. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = OWN_PORTS.first + Math.floor(Math.random() * OWN_PORTS.count);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface RunningServe {
  url: string;
  /** Everything the process wrote to standard output so far. */
  output(): string;
  /** Everything the process (and its workers) wrote to standard error so far. */
  errors(): string;
  /** Sends SIGTERM and resolves with the exit code once the process (and its workers) ended. */
  stop(): Promise<number | null>;
}

/** Starts `loom serve` with the given flags on a free port and waits until it serves. */
export async function startServe(...args: string[]): Promise<RunningServe> {
  return startServeWithEnv({}, ...args);
}

/** As `startServe`, with these environment variables set as well. */
export async function startServeWithEnv(env: NodeJS.ProcessEnv, ...args: string[]): Promise<RunningServe> {
  const port = await freePort();
  const child = spawnLoomWithEnv(env, 'serve', '--port', String(port), ...args);
  let ended = false;
  void child.exited.then(() => (ended = true));
  const deadline = Date.now() + PATIENCE_MS;
  // The banner ends with how to get a new token (of the demo app or of a declared schema), or that there is no demo graph.
  while (!/^(A new token|This database holds no demo graph|A token for one of its)/m.test(child.stdout())) {
    assert.ok(Date.now() < deadline && !ended, `serve did not start: ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: child.stdout,
    errors: child.stderr,
    stop: async () => (await child.stop()).code,
  };
}
