import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loomWithEnv, spawnLoom, spawnLoomWithEnv, type RunningLoom } from '../helpers/cli.js';
import { PATIENCE_MS } from '../helpers/patience.js';

describe('serve --ephemeral, loom ctl and loom requests', () => {
  let serve: RunningLoom;
  let server: { url: string; app_id: string; app_secret: string };
  // The server's temporary folder, of its own: other tests make folders of the same name at once.
  const temp = mkdtempSync(join(tmpdir(), 'loom-ephemeral-test-'));
  const ctl = (...args: string[]) => loomWithEnv({ LOOM_URL: server.url }, 'ctl', ...args);

  before(async () => {
    serve = spawnLoomWithEnv({ TMPDIR: temp }, 'serve', '--ephemeral', '--port', '0', '--no-demo');
    const deadline = Date.now() + PATIENCE_MS;
    while (!serve.stdout().includes('\n')) {
      assert.ok(Date.now() < deadline, `serve --ephemeral did not start: ${serve.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    server = JSON.parse(serve.stdout());
  });
  after(async () => {
    await serve.stop();
    rmSync(temp, { recursive: true, force: true });
  });

  it('prints exactly one line of JSON with the URL and the app', async () => {
    assert.equal(serve.stdout().split('\n').filter(Boolean).length, 1);
    assert.deepEqual(Object.keys(server), ['url', 'app_id', 'app_secret']);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const app = await fetch(`${server.url}/v2.4/${server.app_id}?access_token=${server.app_id}|${server.app_secret}`);
    assert.equal(app.status, 200);
  });

  it('steers the server with a subcommand per call', async () => {
    const frozen = ctl('clock', '--now', '2026-01-01T00:00:00+0000');
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.deepEqual(JSON.parse(frozen.stdout), { now: '2026-01-01T00:00:00+0000', unix: 1_767_225_600, frozen: true });
    assert.equal(JSON.parse(ctl('clock', '--advance', '2h').stdout).now, '2026-01-01T02:00:00+0000');
    assert.equal(JSON.parse(ctl('clock', '--real').stdout).frozen, false);

    assert.equal(JSON.parse(ctl('snapshot', 'empty').stdout).name, 'empty');
    assert.deepEqual(JSON.parse(ctl('snapshots').stdout).data.map((item: { name: string }) => item.name), ['empty']);
    assert.deepEqual(JSON.parse(ctl('restore', 'empty').stdout), { success: true });
    assert.deepEqual(JSON.parse(ctl('delete-snapshot', 'empty').stdout), { success: true });

    const { id } = JSON.parse(ctl('fault', '--path', `/${server.app_id}`, '--preset', 'server_error', '--times', '1').stdout);
    const failed = await fetch(`${server.url}/v2.4/${server.app_id}?access_token=${server.app_id}|${server.app_secret}`);
    assert.equal(failed.status, 500);
    assert.deepEqual(JSON.parse(ctl('faults').stdout).map((fault: { id: string; fired: number }) => [fault.id, fault.fired]), [[id, 1]]);
    assert.deepEqual(JSON.parse(ctl('clear-faults').stdout), { success: true });

    const journal = JSON.parse(ctl('requests', '--status', '500').stdout);
    assert.equal(journal.length, 1);
    assert.equal(journal[0].params.access_token, '[redacted]');
    const lines = loomWithEnv({ LOOM_URL: server.url }, 'requests', '--limit', '1').stdout;
    assert.match(lines, new RegExp(`GET /${server.app_id}\\?access_token=\\[redacted\\] → 500 #1 \\d+ms app ${server.app_id}`));
    assert.deepEqual(JSON.parse(ctl('clear-requests').stdout), { success: true });
    assert.deepEqual(JSON.parse(ctl('reset').stdout), { success: true });

    const unknown = ctl('restore', 'nothing-here');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No snapshot is named "nothing-here"/);
    assert.equal(ctl('teleport').code, 2);
  });

  it('tails the journal with requests --follow', async () => {
    const follow = spawnLoom('requests', '--follow', '--json', '--limit', '0', '--url', server.url);
    try {
      const deadline = Date.now() + PATIENCE_MS;
      let sent = 0;
      while (!follow.stdout().includes('"path":"/me"')) {
        assert.ok(Date.now() < deadline, `requests --follow printed nothing: ${follow.output()}`);
        // Until the follower has started, a request may land before its first look: send more.
        if (sent++ % 20 === 0) await fetch(`${server.url}/v2.4/me`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const entry = JSON.parse(follow.stdout().split('\n').find((line) => line.includes('"path":"/me"'))!);
      assert.equal(entry.status, 400);
      assert.equal(entry.error_code, 2500);
    } finally {
      await follow.stop();
    }
  });

  it('deletes its data once stopped', async () => {
    const made = readdirSync(temp).filter((name) => name.startsWith('loom-'));
    const ours = made.filter((name) => existsSync(join(temp, name, 'loom.db')));
    assert.equal(ours.length, 1, 'one temporary directory holds the database');
    await serve.stop();
    assert.equal(existsSync(join(temp, ours[0]!)), false);
  });
});
