import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, LOOM, loom, startServe } from '../helpers/cli.js';
import { scratchLocation, testStoreKind } from '../helpers/test-store.js';
import { claimMediaFolder } from '../../src/media/media-owner.js';
import { databaseIdOf } from '../../src/store/database-id.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-guidance-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

async function appTokenWorks(url: string, appId: string, secret: string): Promise<boolean> {
  const reply = await fetch(`${url}/v2.4/${appId}/accounts/test-users?access_token=${encodeURIComponent(`${appId}|${secret}`)}`);
  return reply.status === 200;
}

describe('the CLI guides a newcomer', () => {
  it('prints its version, and its help names every environment variable it reads', () => {
    for (const flag of ['--version', '-v']) {
      const run = loom(flag);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, `loom ${manifest.version}\n`);
    }
    const help = loom('--help').stdout;
    for (const name of ['PORT', 'LOOM_DB', 'LOOM_MEDIA_DIR', 'LOOM_PUBLIC_URL', 'LOOM_PROFILE_HOST', 'LOOM_TOKEN_LIFETIME', 'LOOM_HEADER_TIMEOUT', 'LOOM_BODY_TIMEOUT', 'LOOM_MIN_BODY_RATE']) {
      assert.match(help, new RegExp(`^  ${name} `, 'm'), name);
    }
    assert.match(help, /^ {2}reseed /m);
  });

  it('refuses a permission it does not know instead of issuing a token without it', () => {
    const db = scratchLocation();
    assert.equal(loom('seed', '--db', db, '--users', '5').code, 0);
    const refused = loom('token', '--db', db, '--scopes', 'user_posts,bogus_scope');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /unknown permission bogus_scope; known: .*user_posts/);
    assert.equal(refused.stdout, '');
    assert.equal(loom('token', '--db', db, '--scopes', 'user_posts').code, 0);
  });

  it('leaves no empty file behind when the --db of a reading command is mistyped', () => {
    const typo = join(directory, 'typo.db');
    for (const args of [['token'], ['export'], ['app', 'list'], ['app', 'reset-secret', '1']]) {
      const run = loom(...args, '--db', typo);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /there is no database at .*typo\.db/);
      assert.equal(existsSync(typo), false, `${args.join(' ')} created the file`);
    }
  });

  it('says how to choose another port when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as { port: number }).port);
      const run = loom('serve', '--port', port, '--no-demo', '--db', scratchLocation());
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use.*--port N or PORT=N`));
      assert.doesNotMatch(run.stderr, /Usage:/, 'no wall of usage for a busy port');
    } finally {
      blocker.close();
    }
  });

  it('prints the demo app secret once, when it creates it, and reset-secret issues a new one', async () => {
    const db = scratchLocation();
    const first = await startServe('--db', db, '--media-dir', join(directory, 'media-secret'));
    let secret: string;
    let appId: string;
    try {
      const printed = /^Demo app secret \(shown this once; "bin\/loom app reset-secret (\d+)" prints a new one\): ([0-9a-f]{64})$/m.exec(first.output());
      assert.ok(printed, first.output());
      [, appId, secret] = printed as unknown as [string, string, string];
      assert.match(first.output(), new RegExp(`^Demo app token .*: ${appId}\\|${secret}$`, 'm'));
      assert.equal(await appTokenWorks(first.url, appId, secret), true);
    } finally {
      await first.stop();
    }

    const again = await startServe('--db', db, '--media-dir', join(directory, 'media-secret'));
    try {
      assert.doesNotMatch(again.output(), new RegExp(secret), 'the secret is printed only when created');
      assert.match(again.output(), new RegExp(`^Demo app secret: shown when it was created; "bin/loom app reset-secret ${appId}" prints a new one$`, 'm'));

      const reset = loom('app', 'reset-secret', appId, '--db', db, '--json');
      assert.equal(reset.code, 0, reset.stderr);
      const renewed = JSON.parse(reset.stdout) as { id: string; secret: string };
      assert.equal(renewed.id, appId);
      assert.match(renewed.secret, /^[0-9a-f]{64}$/);
      assert.equal(await appTokenWorks(again.url, appId, renewed.secret), true);
      assert.equal(await appTokenWorks(again.url, appId, secret), false, 'the old secret stops working');
    } finally {
      await again.stop();
    }
    const missing = loom('app', 'reset-secret', '999999', '--db', db);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /there is no app with id 999999/);
  });

  it('logs JSON lines to standard output when it is not a terminal, or to the file --log names', async () => {
    const db = scratchLocation();
    assert.equal(loom('seed', '--db', db, '--users', '5').code, 0);
    const piped = await startServe('--db', db, '--no-demo');
    try {
      await fetch(`${piped.url}/v2.4/me`);
      await waitFor(() => /"msg":"request"/.test(piped.output()));
      const line = piped.output().split('\n').find((text) => text.includes('"msg":"request"'))!;
      assert.equal(JSON.parse(line).path, '/v2.4/me');
    } finally {
      await piped.stop();
    }

    const logFile = join(directory, 'requests.log');
    const filed = await startServe('--db', db, '--no-demo', '--log', logFile);
    try {
      await fetch(`${filed.url}/v2.4/me`);
      await waitFor(() => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('"msg":"request"'));
      assert.doesNotMatch(filed.output(), /"msg":"request"/);
    } finally {
      await filed.stop();
    }
  });

  it('keeps request logs out of the terminal that shows the banner', { skip: !existsSync('/usr/bin/script') && 'needs script(1) for a terminal' }, async () => {
    const db = scratchLocation();
    assert.equal(loom('seed', '--db', db, '--users', '5').code, 0);
    const port = await freePort();
    // script(1) gives the server a pseudo-terminal as its standard output, as a person's shell does.
    const command = `exec ${process.execPath} ${LOOM} serve --no-demo --port ${port} --db '${db}'`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LOOM_DB: '' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      await waitFor(() => output.includes('Request logs are off'));
      assert.equal((await fetch(`http://127.0.0.1:${port}/v2.4/me`)).status, 400);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
    // Everything the server wrote is in by now: it has ended.
    assert.match(output, /Request logs are off \(--log FILE keeps them in a file, --log - prints them here\)/);
    assert.doesNotMatch(output, /"msg"/);
  });

  it('starts over with reseed --yes, and refuses without it when nobody can be asked', { skip: testStoreKind === 'postgres' && 'reseed removes SQLite files' }, async () => {
    const db = join(directory, 'reseed.db');
    const media = join(directory, 'reseed-media');
    assert.equal(loom('seed', '--db', db, '--users', '5').code, 0);
    await claimFor(db, media);
    writeFileSync(join(media, 'upload.jpg'), 'bytes');

    const refused = loom('reseed', '--db', db, '--media-dir', media, '--users', '5');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /give --yes/);
    assert.equal(existsSync(join(media, 'upload.jpg')), true, 'nothing removed without a yes');

    const reseeded = loom('reseed', '--db', db, '--media-dir', media, '--users', '5', '--yes');
    assert.equal(reseeded.code, 0, reseeded.stderr);
    assert.match(reseeded.stdout, /^Seeded .*reseed\.db: 5 users/m);
    assert.match(reseeded.stdout, /^Demo app "Loom Demo": id \d+, secret [0-9a-f]{64}$/m);
    assert.equal(existsSync(media), false, 'the media directory is gone');
    assert.equal(loom('token', '--db', db).code, 0, 'the new graph serves tokens');
  });

  it('removes with reseed only the media folder that is provably the database\'s own', { skip: testStoreKind === 'postgres' && 'reseed removes SQLite files' }, async () => {
    const db = join(directory, 'reseed-own.db');
    assert.equal(loom('seed', '--db', db, '--users', '5').code, 0);
    const unowned = join(directory, 'unowned-media');
    mkdirSync(unowned);
    writeFileSync(join(unowned, 'upload.jpg'), 'bytes');
    const left = loom('reseed', '--db', db, '--media-dir', unowned, '--users', '5', '--yes');
    assert.equal(left.code, 0, left.stderr);
    assert.match(left.stderr, new RegExp(`Left ${unowned} as it is: nothing in it says it is ${db}'s`));
    assert.equal(existsSync(join(unowned, 'upload.jpg')), true);

    const other = join(directory, 'reseed-other.db');
    assert.equal(loom('seed', '--db', other, '--users', '5').code, 0);
    const theirs = join(directory, 'their-media');
    await claimFor(other, theirs);
    const refused = loom('reseed', '--db', db, '--media-dir', theirs, '--users', '5', '--yes');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`The media folder ${theirs} belongs to ${other} \\(database id [0-9a-f]{32}\\), not to ${db}.*; nothing was removed`));
    assert.equal(existsSync(theirs) && existsSync(db), true, 'nothing was removed');
  });
});

/** Gives the database at `db` the folder, as serving it does. */
async function claimFor(db: string, folder: string): Promise<void> {
  const store = openSqliteStore(db);
  try {
    await claimMediaFolder(folder, { id: await databaseIdOf(store), name: db });
  } finally {
    await store.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
