import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findDemo } from '../../src/seed/demo-app.js';
import { openStore } from '../../src/store/open-store.js';
import { freePort, LOOM } from '../helpers/cli.js';
import { eventually } from '../helpers/patience.js';
import { startReceiver, VERIFY_TOKEN, type Receiver } from '../helpers/receiver.js';
import { scratchLocation } from '../helpers/test-store.js';

const dir = mkdtempSync(join(tmpdir(), 'loom-webhook-workers-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** How long a post waits for its answer before it is sent again. */
const GIVE_UP_MS = 15_000;

/** Entries received per delivery id, counting each delivery once however often it came. */
function received(receiver: Receiver): { entries: number; repeats: number } {
  const byDelivery = new Map<string, number>();
  let repeats = 0;
  for (const request of receiver.notifications()) {
    const id = String(request.headers['x-loom-delivery']);
    if (byDelivery.has(id)) repeats += 1;
    byDelivery.set(id, JSON.parse(request.body).entry.length);
  }
  return { entries: [...byDelivery.values()].reduce((sum, n) => sum + n, 0), repeats };
}

describe('webhooks from two worker processes on PostgreSQL', () => {
  it('delivers 1,000 changes exactly once while both run, and loses none when one is killed', async () => {
    const db = scratchLocation('postgres');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const receiver = await startReceiver();
    const primary: ChildProcess = spawn(
      process.execPath,
      [LOOM, 'serve', '--db', db, '--media-dir', join(dir, 'media'), '--port', String(port), '--workers', '2', '--webhook-window', '100'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    primary.stdout!.on('data', (chunk) => (output += chunk));
    primary.stderr!.on('data', (chunk) => (output += chunk));
    try {
      await eventually(() => {
        assert.ok(primary.exitCode === null, `serve ended: ${output}`);
        return output.includes('A new token');
      }, 'serve to start');
      const token = /Access token \(valid 2 hours\): (\S+)/.exec(output)![1]!;
      const store = openStore(db);
      const demo = (await findDemo(store))!;
      await store.close();
      // A connection the cluster's primary accepted for the worker that is killed below is never
      // answered (node:cluster keeps it for a worker that is gone), so a post gives up on its
      // answer after a while and is sent again, as a client with a timeout would.
      const form = (path: string, fields: Record<string, string>, signal?: AbortSignal) =>
        fetch(`${base}/v2.4${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), signal });
      const subscribed = await form(`/${demo.app.id}/subscriptions`, {
        access_token: `${demo.app.id}|${demo.app.secret}`, object: 'user', fields: 'feed', callback_url: receiver.url, verify_token: VERIFY_TOKEN,
      });
      assert.equal(subscribed.status, 200, await subscribed.text());
      const feedCount = async () =>
        ((await (await fetch(`${base}/v2.4/me/posts?limit=0&summary=true&access_token=${token}`)).json()) as { summary: { total_count: number } }).summary.total_count;

      /**
       * Posts `count` times, a few at once; a post whose answer never came is sent again. With
       * `giveUp`, a post waits that long for its answer (only while a worker is killed: a post
       * answered late and sent again would make one change too many).
       */
      const post = async (count: number, onProgress: (done: number) => void = () => {}, giveUp?: number) => {
        let next = 0;
        let done = 0;
        const lane = async () => {
          while (next < count) {
            const i = next++;
            for (;;) {
              const reply = await form('/me/feed', { access_token: token, message: `change ${i}` }, giveUp === undefined ? undefined : AbortSignal.timeout(giveUp)).catch(() => undefined);
              if (reply?.status === 200) break;
            }
            onProgress((done += 1));
          }
        };
        await Promise.all(Array.from({ length: 8 }, lane));
      };

      await post(1000);
      await eventually(() => received(receiver).entries >= 1000, '1,000 entries');
      const both = received(receiver);
      assert.equal(both.entries, 1000);
      assert.equal(both.repeats, 0, 'no delivery went out twice while both workers ran');

      // One worker dies mid-way; whatever it held is taken over once its lease runs out.
      const before = await feedCount();
      const workers = execFileSync('ps', ['-o', 'pid=', '--ppid', String(primary.pid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
      assert.equal(workers.length, 2);
      let killed = false;
      await post(1000, (done) => {
        if (done === 300 && !killed) {
          killed = true;
          process.kill(workers[0]!, 'SIGKILL');
        }
      }, GIVE_UP_MS);
      const made = (await feedCount()) - before;
      assert.ok(made >= 1000, `made ${made}`);
      const advance = await fetch(`${base}/_loom/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '5m' }) });
      assert.equal(advance.status, 200);
      await eventually(() => received(receiver).entries >= 1000 + made, `${made} more entries`);
      assert.equal(received(receiver).entries, 1000 + made, 'every committed change arrived');
    } finally {
      primary.kill('SIGTERM');
      await new Promise((resolve) => (primary.exitCode !== null ? resolve(null) : primary.once('exit', resolve)));
      await receiver.close();
    }
  });
});
