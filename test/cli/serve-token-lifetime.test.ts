import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runDialog } from '../helpers/browser.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('loom serve token lifetime', () => {
  it('refuses a lifetime that is not a positive whole number', () => {
    const run = spawnSync(process.execPath, ['bin/loom', 'serve', '--token-lifetime', 'soon'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--token-lifetime must be a positive whole number/);
  });

  it('gives dialog tokens the lifetime of LOOM_TOKEN_LIFETIME', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'loom-lifetime-')), 'graph.db');
    const store = openSqliteStore(db);
    const app = await registerApp(store, { name: 'Lifetime App', now: 1 });
    const [userId] = (await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Lee Long' } } }])).results as number[];
    await store.setCredentials({ userId: userId!, email: 'lee@example.com', passwordHash: await hashPassword('pw') });
    await store.close();

    const port = await freePort();
    const child = spawn(process.execPath, ['bin/loom', 'serve', '--db', db, '--port', String(port), '--no-demo'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOOM_TOKEN_LIFETIME: '900' },
    });
    try {
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      const deadline = Date.now() + 30_000;
      while (!output.includes('serving the Graph API')) {
        assert.ok(Date.now() < deadline, `serve did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const base = `http://127.0.0.1:${port}`;
      const { location } = await runDialog(base, { clientId: String(app.id), redirectUri: 'http://localhost/cb', responseType: 'token', email: 'lee@example.com', password: 'pw' });
      assert.equal(new URLSearchParams(location.hash.slice(1)).get('expires_in'), '900');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
