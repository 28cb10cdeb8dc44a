/** A Loom server of its own for a probe: the demo graph in a scratch folder, served by `bin/loom serve` in its own process. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOOM = 'bin/loom';

export interface ScratchLoom {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** The demo user's token, with every permission. */
  token: string;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

function loom(...args: string[]): string {
  const result = spawnSync(process.execPath, [LOOM, ...args], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
  if (result.status !== 0) throw new Error(`loom ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Seeds the demo graph into a scratch database and serves it with `serveArgs` added; resolves once it serves. */
export async function startScratchLoom(label: string, serveArgs: string[] = []): Promise<ScratchLoom> {
  const dir = mkdtempSync(join(tmpdir(), `loom-${label}-`));
  const db = join(dir, 'loom.db');
  loom('seed', '--db', db);
  const { access_token: token } = JSON.parse(loom('token', '--db', db, '--json')) as { access_token: string };
  // Port 0: the server takes a free port itself and names it, so no other process can take it first.
  const server = spawn(process.execPath, [LOOM, 'serve', '--db', db, '--port', '0', '--no-demo', '--log', 'off', '--media-dir', join(dir, 'media'), ...serveArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const stop = async () => {
    if (server.exitCode === null) server.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let banner = '';
      server.stdout.on('data', (chunk: Buffer) => {
        banner += chunk.toString();
        const serving = /Loom is serving the Graph API at (http:\/\/[^/\s]+)\//.exec(banner);
        if (serving) resolve(serving[1]!);
      });
      server.once('exit', (code) => reject(new Error(`loom serve exited with ${code}`)));
    });
    return { base, token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
