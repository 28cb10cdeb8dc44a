import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../helpers/cli.js';
import { eventually } from '../helpers/patience.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

const dir = mkdtempSync(join(tmpdir(), 'loom-docs-receiver-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the receiver of docs/webhooks.md', () => {
  const served = useFixtureServer({ webhooks: { deliver: true, allowPrivate: true, windowMs: 50 } });

  it('passes the handshake, accepts signed notifications and refuses a forged one', async () => {
    const { fixture, server } = served;
    const doc = readFileSync('docs/webhooks.md', 'utf8');
    const code = /## A receiver that checks the signature\s+```js\n([\s\S]*?)```/.exec(doc)![1]!;
    assert.ok(code.trim().split('\n').length <= 25, 'a short receiver');
    writeFileSync(join(dir, 'receiver.mjs'), code);
    const port = await freePort();
    const child = spawn(process.execPath, [join(dir, 'receiver.mjs')], { env: { ...process.env, APP_SECRET: fixture.app.secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      await eventually(() => output.includes('listening'), 'the receiver to listen');
      const callback = `http://127.0.0.1:${port}/hook`;
      const subscribed = await server.form(`/v2.4/${fixture.app.id}/subscriptions`, {
        access_token: `${fixture.app.id}|${fixture.app.secret}`, object: 'user', fields: 'feed', callback_url: callback, verify_token: 'secret-word',
      });
      assert.deepEqual(subscribed.body, { success: true }, subscribed.text);
      const token = await fixture.tokenFor(fixture.users.alice, ['publish_actions']);
      assert.equal((await server.form('/v2.4/me/feed', { access_token: token, message: 'Grüße' })).status, 200);
      await eventually(() => output.includes("changed_fields: [ 'feed' ]"), 'the receiver to log the entry');

      const forged = await fetch(callback, { method: 'POST', headers: { 'x-hub-signature-256': 'sha256=00' }, body: '{"object":"user","entry":[]}' });
      assert.equal(forged.status, 401);
    } finally {
      child.kill();
    }
  });
});
