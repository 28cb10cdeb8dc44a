import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findDemo } from '../../src/seed/demo-app.js';
import { openStore } from '../../src/store/open-store.js';
import { freePort, LOOM } from '../helpers/cli.js';
import { eventually } from '../helpers/patience.js';
import { startReceiver, VERIFY_TOKEN } from '../helpers/receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'loom-webhook-kill-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `loom serve` and resolves with the demo token it prints once it listens. */
async function serve(db: string, port: number, windowMs: number): Promise<{ child: ChildProcess; token: string }> {
  const child = spawn(
    process.execPath,
    [LOOM, 'serve', '--db', db, '--media-dir', join(dir, 'media'), '--port', String(port), '--webhook-window', String(windowMs)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  await eventually(() => {
    assert.ok(child.exitCode === null, `serve ended: ${output}`);
    return output.includes('A new token');
  }, 'serve to start');
  return { child, token: /Access token \(valid 2 hours\): (\S+)/.exec(output)![1]! };
}

describe('webhooks across a crash', () => {
  it('delivers a notification committed just before a SIGKILL once the server is back', async () => {
    const db = join(dir, 'graph.db');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/v2.4`;
    const receiver = await startReceiver();
    try {
      // The first server holds changes for ten minutes before sending: it dies with them unsent.
      const first = await serve(db, port, 600_000);
      const store = openStore(db);
      const demo = (await findDemo(store))!;
      await store.close();
      const form = (path: string, fields: Record<string, string>) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
      try {
        const subscribed = await form(`/${demo.app.id}/subscriptions`, {
          access_token: `${demo.app.id}|${demo.app.secret}`,
          object: 'user',
          fields: 'feed',
          callback_url: receiver.url,
          verify_token: VERIFY_TOKEN,
        });
        assert.equal(subscribed.status, 200, await subscribed.text());
        const posted = await form('/me/feed', { access_token: first.token, message: 'Written just before the crash' });
        assert.equal(posted.status, 200, await posted.text());
      } finally {
        first.child.kill('SIGKILL');
        await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve(null) : first.child.once('exit', resolve)));
      }
      assert.equal(receiver.notifications().length, 0, 'nothing was sent before the crash');

      const second = await serve(db, port, 50);
      try {
        await eventually(() => receiver.notifications().length > 0, 'the notification after the restart');
        const [notification] = receiver.notifications();
        const body = JSON.parse(notification!.body);
        assert.equal(body.object, 'user');
        assert.deepEqual(body.entry.map((entry: { changed_fields: string[] }) => entry.changed_fields), [['feed']]);
        const expected = createHmac('sha256', demo.app.secret).update(notification!.body).digest('hex');
        assert.equal(notification!.headers['x-hub-signature-256'], `sha256=${expected}`);
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((resolve) => (second.child.exitCode !== null ? resolve(null) : second.child.once('exit', resolve)));
      }
    } finally {
      await receiver.close();
    }
  });
});
