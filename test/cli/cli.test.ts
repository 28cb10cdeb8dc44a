import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runDialog } from '../helpers/browser.js';
import { loom, loomWithEnv, startServe } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';

describe('the loom command line', () => {
  it('explains itself and every command with --help', () => {
    const top = loom('--help');
    assert.equal(top.code, 0);
    for (const command of ['serve', 'seed', 'token', 'export', 'import']) {
      assert.match(top.stdout, new RegExp(`\\b${command}\\b`));
      const help = loom(command, '--help');
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, new RegExp(`^Usage: loom ${command}`), command);
    }
    assert.match(loom('serve', '--help').stdout, /--no-demo/);
    assert.match(loom('serve', '--help').stdout, /--workers N/);
    assert.match(loom('export', '--help').stdout, /--tokens/);
    assert.match(loom('token', '--help').stdout, /--expires-in SECONDS/);
  });

  it('refuses unknown commands and flags with usage and exit code 2', () => {
    const command = loom('frobnicate');
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "frobnicate"/);
    const flag = loom('seed', '--bogus');
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /Usage: loom seed/);
    assert.equal(loom('seed', '--users', 'many').code, 2);
  });

  it('refuses a bad port from --port or PORT, naming where it came from, before opening the database', () => {
    const db = scratchLocation('sqlite');
    for (const [env, args, message] of [
      [{ PORT: 'eighty' }, [], /^loom serve: PORT must be a positive whole number, not "eighty"/],
      [{ PORT: '70000' }, [], /^loom serve: PORT must be at most 65535, not 70000/],
      [{ PORT: '8080' }, ['--port', '8o8o'], /^loom serve: --port must be a positive whole number, not "8o8o"/],
      [{}, ['--port', '65536'], /^loom serve: --port must be at most 65535, not 65536/],
    ] as const) {
      const run = loomWithEnv(env, 'serve', '--db', db, ...args);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
    }
    assert.equal(existsSync(db), false, 'nothing was seeded');
  });

  it('seeds a database once and prints tokens for its demo user', () => {
    const db = scratchLocation();
    const seeded = loom('seed', '--db', db, '--users', '55', '--seed', 'cli');
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /55 users/);
    const again = loom('seed', '--db', db);
    assert.equal(again.code, 2, 'a second seed into the same file is refused');
    assert.match(again.stderr, /already holds a graph/);

    const plain = loom('token', '--db', db);
    assert.match(plain.stdout.trim(), /^EAA[\w-]+$/);
    const before = Math.floor(Date.now() / 1000);
    const json = JSON.parse(loom('token', '--db', db, '--json', '--expires-in', '600', '--scopes', 'public_profile,user_friends').stdout);
    assert.deepEqual(Object.keys(json), ['access_token', 'user_id', 'app_id', 'expires_at']);
    assert.match(json.user_id, /^\d+$/);
    assert.match(json.app_id, /^\d+$/);
    // Bounded by the clock read on either side of the command, however long it took to start.
    const after = Math.ceil(Date.now() / 1000);
    assert.ok(json.expires_at >= before + 600 && json.expires_at <= after + 600, `expires_at ${json.expires_at} outside ${before + 600}..${after + 600}`);
    const other = loom('token', '--db', db, '--user', json.user_id, '--json');
    assert.equal(JSON.parse(other.stdout).user_id, json.user_id);
    assert.equal(loom('token', '--db', db, '--user', '42').code, 2);
  });

  it('serves the demo graph on an empty database and prints a working token and examples', async () => {
    const db = scratchLocation();
    const server = await startServe('--db', db, '--profile-host', 'https://people.example/');
    try {
      const output = server.output();
      const base = server.url;
      const token = /Access token \(valid 2 hours\): (\S+)/.exec(output)?.[1];
      assert.ok(token, `serve printed no token: ${output}`);
      const me = await fetch(`${base}/v2.4/me?access_token=${token}`);
      assert.equal(me.status, 200);
      const body = (await me.json()) as { name: string; id: string };
      assert.deepEqual(Object.keys(body), ['name', 'id']);
      const { id } = body;
      const link = await fetch(`${base}/v2.4/me?fields=link&access_token=${token}`);
      assert.deepEqual(await link.json(), { link: `https://people.example/app_scoped_user_id/${id}/`, id });
      const examples = [...output.matchAll(/curl -g '([^']+)'/g)].map((match) => match[1]!);
      assert.equal(examples.length, 2);
      for (const example of examples) assert.equal((await fetch(example)).status, 200, example);
      const explorer = /Explorer \(get and renew tokens, run queries\): (\S+)/.exec(output)?.[1];
      assert.equal(explorer, `${base}/explorer`);
      const page = await fetch(explorer);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);

      const [, email, password] = /Demo sign-in \(OAuth dialog\): email (\S+), password (\S+)/.exec(output) ?? [];
      assert.deepEqual([email, password], ['ilse.marwood@example.com', 'loom-demo']);
      const appId = /app "Loom Demo" \(id (\d+)\)/.exec(output)![1]!;
      const { location } = await runDialog(base, { clientId: appId, redirectUri: 'http://localhost/cb', email: email!, password: password! });
      assert.match(location.searchParams.get('code') ?? '', /^AQ/, 'the demo user signs in to the dialog');
    } finally {
      await server.stop();
    }
  });
});
