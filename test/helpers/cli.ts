import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const LOOM = 'bin/loom';

/** Runs the loom command to completion; LOOM_DB is cleared so only the flags choose the database. */
export function loom(...args: string[]) {
  const result = spawnSync(process.execPath, [LOOM, ...args], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface LoomRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningLoom {
  /** Everything the process wrote to standard output and standard error so far. */
  output(): string;
  /** Settles once the process ended. */
  exited: Promise<LoomRun>;
}

/** Starts the loom command without waiting for it; LOOM_DB is cleared as for `loom`. */
export function spawnLoom(...args: string[]): RunningLoom {
  const child = spawn(process.execPath, [LOOM, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOOM_DB: '' } });
  let [stdout, stderr, output] = ['', '', ''];
  child.stdout.on('data', (chunk) => ((stdout += chunk), (output += chunk)));
  child.stderr.on('data', (chunk) => ((stderr += chunk), (output += chunk)));
  const exited = new Promise<LoomRun>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { output: () => output, exited };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServe {
  url: string;
  /** Everything the process wrote to standard output so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code once the process (and its workers) ended. */
  stop(): Promise<number | null>;
}

/** Starts `loom serve` with the given flags on a free port and waits until it serves. */
export async function startServe(...args: string[]): Promise<RunningServe> {
  const port = await freePort();
  const child = spawn(process.execPath, [LOOM, 'serve', '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOOM_DB: '' },
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Loom is serving')) {
    assert.ok(Date.now() < deadline && child.exitCode === null, `serve did not start: ${output}${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
