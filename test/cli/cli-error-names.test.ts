import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, loom, loomWithEnv } from '../helpers/cli.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-error-names-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('every error about a file, folder, database or URL names it, and says why', () => {
  it('ctl and requests name the server they could not reach', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    for (const args of [['ctl', 'reset', '--url', url], ['requests', '--url', url]]) {
      const run = loom(...args);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, new RegExp(`^loom ${args[0]}: could not reach ${escape(url)}: connection refused \\(ECONNREFUSED\\)`), args.join(' '));
    }
    const fromEnv = loomWithEnv({ LOOM_URL: 'localhost:8080' }, 'ctl', 'clock');
    assert.equal(fromEnv.code, 2);
    assert.match(fromEnv.stderr, /LOOM_URL must be the http:\/\/ or https:\/\/ address of a Loom server, such as http:\/\/127\.0\.0\.1:8080, not "localhost:8080"/);
  });

  it('names a SQLite path that is a folder, lies in a missing folder, or is no database', () => {
    const folder = join(directory, 'a-folder');
    mkdirSync(folder);
    const text = join(directory, 'notes.txt');
    writeFileSync(text, 'not a database\n'.repeat(20));
    const missing = join(directory, 'missing');
    for (const [args, message] of [
      [['serve', '--db', folder], `cannot open the SQLite database ${folder}: it is a folder; name a file, such as ${join(folder, 'loom.db')}`],
      [['seed', '--db', join(missing, 'x.db')], `cannot open the SQLite database ${join(missing, 'x.db')}: the folder ${missing} does not exist`],
      [['token', '--db', text], `cannot open the SQLite database ${text}: the file is not a SQLite database`],
    ] as const) {
      const run = loom(...args);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, new RegExp(`^loom ${args[0]}: ${escape(message)}\\n$`), args.join(' '));
    }
  });

  it('names a PostgreSQL database it cannot use, its password hidden', async () => {
    const url = `postgres://loom:hunter2@127.0.0.1:${await freePort()}/loom`;
    const run = loom('seed', '--db', url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`cannot use the PostgreSQL database ${escape(url.replace('hunter2', '***'))}: connection refused \\(ECONNREFUSED\\)`));
    assert.doesNotMatch(run.stderr + run.stdout, /hunter2/);
  });

  it('checks serve’s log file, media folder and addresses before it serves', () => {
    const db = join(directory, 'serve.db');
    const file = join(directory, 'a-file');
    writeFileSync(file, '');
    for (const [args, message] of [
      [['--log', join(directory, 'no-such-folder', 'requests.log')], `--log: cannot write to ${join(directory, 'no-such-folder', 'requests.log')}: no such file or folder (ENOENT)`],
      [['--media-dir', join(file, 'photos')], `uploaded photos cannot be kept in ${join(file, 'photos')}: ${file} is a file, not a folder`],
      [['--public-url', 'graph.example.com'], '--public-url must be an http:// or https:// address such as https://graph.example.com, not "graph.example.com"'],
    ] as const) {
      const run = loom('serve', '--db', db, '--port', '0', ...args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, new RegExp(`^loom serve: ${escape(message)}`), args.join(' '));
      assert.doesNotMatch(run.stdout, /Loom is serving/, 'refused before serving');
    }
  });

  it('ca names the folder it cannot create, and leaves none behind', () => {
    const missing = join(directory, 'nowhere');
    const run = loom('ca', '--db', join(missing, 'x.db'));
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`cannot create the certificate authority's folder ${escape(join(missing, 'x.db-ca'))}: the folder ${escape(missing)} does not exist`));
    assert.equal(existsSync(missing), false);
  });

  it('reseed removes nothing that is not a SQLite database', () => {
    const folder = join(directory, 'precious');
    mkdirSync(folder);
    writeFileSync(join(folder, 'keep.txt'), 'mine');
    const text = join(directory, 'precious.txt');
    writeFileSync(text, 'mine');
    for (const [path, why] of [[folder, 'is not a file'], [text, 'is not a SQLite database']] as const) {
      const run = loom('reseed', '--db', path, '--media-dir', join(directory, 'reseed-media'), '--users', '3', '--yes');
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`^loom reseed: ${escape(path)} ${why}; reseed removes SQLite databases only`));
    }
    assert.equal(existsSync(join(folder, 'keep.txt')), true);
    assert.equal(existsSync(text), true);
  });
});
