import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loom, startServe } from '../helpers/cli.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-arguments-'));
after(() => rmSync(directory, { recursive: true, force: true }));

function createApp(db: string, name: string): string {
  const created = loom('app', 'create', '--db', db, '--name', name, '--json');
  assert.equal(created.code, 0, created.stderr);
  return (JSON.parse(created.stdout) as { id: string }).id;
}

describe('options come before or after a command’s arguments', () => {
  it('app update, reset-secret and delete take the id wherever it stands', () => {
    const db = join(directory, 'apps.db');
    const id = createApp(db, 'Either Order');
    const before = loom('app', 'update', '--db', db, '--category', 'Books', id);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, new RegExp(`^Updated app ${id} "Either Order"`));
    const after = loom('app', 'update', id, '--db', db, '--category', 'Games');
    assert.equal(after.code, 0, after.stderr);

    const reset = loom('app', '--db', db, 'reset-secret', '--json', id);
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal((JSON.parse(reset.stdout) as { id: string }).id, id);

    const deleted = loom('app', 'delete', '--db', db, id);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `Deleted app ${id}\n`);
    assert.doesNotMatch(loom('app', 'list', '--db', db).stdout, /Either Order/);

    const extra = loom('app', 'delete', '--db', db, id, '7');
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /delete takes one app id, not 2 arguments/);
  });

  it('webhooks redeliver and send-test read their arguments after the options', () => {
    const db = join(directory, 'hooks.db');
    const id = createApp(db, 'Hooks');
    const redeliver = loom('webhooks', 'redeliver', '--db', db, '999');
    assert.equal(redeliver.code, 2);
    assert.match(redeliver.stderr, /no delivery has the id 999/);
    const sendTest = loom('webhooks', '--db', db, 'send-test', id, 'user', 'feed');
    assert.equal(sendTest.code, 2);
    assert.match(sendTest.stderr, new RegExp(`app ${id} has no subscription to user`));
  });

  it('ctl takes --url before its call and after the call’s name', async () => {
    const server = await startServe('--db', join(directory, 'ctl.db'), '--no-demo', '--media-dir', join(directory, 'ctl-media'));
    try {
      const saved = loom('ctl', '--url', server.url, 'snapshot', 'first');
      assert.equal(saved.code, 0, saved.stderr);
      assert.equal((JSON.parse(saved.stdout) as { name: string }).name, 'first');
      const restored = loom('ctl', 'restore', '--url', server.url, 'first');
      assert.equal(restored.code, 0, restored.stderr);
      const listed = loom('ctl', 'snapshots', '--url', server.url);
      assert.match(listed.stdout, /"name": "first"/);
    } finally {
      await server.stop();
    }
  });
});

describe('a mistyped option, action or command names the one meant', () => {
  it('suggests the nearest option of the command itself', () => {
    const db = join(directory, 'never.db');
    for (const [args, meant] of [
      [['serve', '--prot', '8080'], '--port'],
      [['serve', '--media', 'photos'], '--media-dir'],
      [['seed', '--user', '5'], '--users'],
      [['token', '--expire-in', '60'], '--expires-in'],
      [['app', 'create', '--redirect-url', 'https://a.example/'], '--redirect-uri'],
      [['app', 'update', '5', '--calls-per-hr', '9'], '--calls-per-hour'],
      [['webhooks', 'deliveries', '--stauts', 'failed'], '--status'],
      [['ctl', 'clock', '--advnce', '1h'], '--advance'],
      [['import', '--skip-invalids'], '--skip-invalid'],
      [['app', '--nmae', 'Typo', 'create'], '--name'],
    ] as const) {
      const run = loom(...args, '--db', db);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, new RegExp(`unknown option ${args.find((arg) => arg.startsWith('--'))}; did you mean ${meant}\\?`), args.join(' '));
    }
    assert.equal(existsSync(db), false, 'no command went on to open the database');
  });

  it('suggests nothing that is not the command’s own, and then shows its usage', () => {
    const run = loom('seed', '--port', '8080');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^loom seed: unknown option --port\n\nUsage: loom seed/);
  });

  it('suggests the nearest action and command', () => {
    assert.match(loom('app', 'delet', '5').stderr, /unknown action "delet"; did you mean "delete"\?/);
    assert.match(loom('webhooks', 'deliverys').stderr, /unknown action "deliverys"; did you mean "deliveries"\?/);
    assert.match(loom('ctl', 'snapshto', 'x').stderr, /unknown call "snapshto"; did you mean "snapshot"\?/);
    const command = loom('serv', '--port', '8080');
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "serv"; did you mean "serve"\?/);
    assert.match(loom('--db', 'x.db', 'serve').stderr, /the command comes first: loom serve --db/);
  });
});
