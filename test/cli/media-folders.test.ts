import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import { freePort, LOOM } from '../helpers/cli.js';
import { pngBytes } from '../helpers/images.js';
import { scratchLocation, testStoreKind } from '../helpers/test-store.js';

const root = mkdtempSync(join(tmpdir(), 'loom-media-folders-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A database in `cwd`: a SQLite file there, or a scratch schema on PostgreSQL (whose default folder is in `cwd` too). */
const databaseIn = (cwd: string, name: string) => (testStoreKind === 'sqlite' ? join(cwd, `${name}.db`) : scratchLocation());

interface Served {
  url: string;
  token: string | undefined;
  output: () => string;
  /** SIGTERM (or the signal given), and the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `loom serve` run from `cwd` with no media folder set but by `args`; resolves once it serves, or with its failure. */
async function serve(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served | { code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(LOOM), 'serve', '--port', String(port), ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOOM_DB: '', LOOM_MEDIA_DIR: '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  let code: number | null | undefined;
  void exited.then((value) => (code = value));
  const deadline = Clock.real().now() + 60;
  while (!/^(A new token|This database holds no demo graph)/m.test(output)) {
    if (code !== undefined) return { code, output };
    assert.ok(Clock.real().now() < deadline, `serve did not start: ${output}`);
    await new Promise((done) => setTimeout(done, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    token: /Access token \(valid 2 hours\): (\S+)/.exec(output)?.[1],
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal);
      await exited;
    },
  };
}

function serving(served: Served | { code: number | null; output: string }): Served {
  assert.ok('url' in served, `serve failed: ${'url' in served ? '' : served.output}`);
  return served;
}

async function uploadPhoto(server: Served, seed: number): Promise<{ source: string; key: string; bytes: Buffer }> {
  const bytes = pngBytes(5, 3, seed);
  const body = new FormData();
  body.set('access_token', server.token!);
  body.set('source', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
  const reply = await fetch(`${server.url}/v2.4/me/photos`, { method: 'POST', body });
  assert.equal(reply.status, 200, await reply.clone().text());
  const { id } = (await reply.json()) as { id: string };
  const read = await fetch(`${server.url}/v2.4/${id}?fields=source&access_token=${server.token}`);
  const { source } = (await read.json()) as { source: string };
  return { source: new URL(source).pathname, key: source.split('/').pop()!, bytes };
}

async function bytesAt(server: Served, path: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Every file under `folder`, by path. */
const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/** Sets every file under `folder` two hours back: older than any grace period, without waiting for it. */
function ageAll(folder: string): void {
  const twoHoursAgo = Clock.real().now() - 7200;
  for (const file of filesUnder(folder)) utimesSync(file, twoHoursAgo, twoHoursAgo);
}

/** The one media folder `serve` named in its banner. */
const mediaDirOf = (server: Served) => /^Uploaded photos and videos are kept in (.+)$/m.exec(server.output())![1]!;

describe('media folders belong to one database', () => {
  const cwd = join(root, 'shared');
  mkdirSync(cwd);
  const first = databaseIn(cwd, 'first');
  const second = databaseIn(cwd, 'second');
  let photo: { source: string; key: string; bytes: Buffer };
  let firstFolder: string;

  it("keeps a database's photos when another database is served from the same directory", async () => {
    const a = serving(await serve(cwd, ['--db', first]));
    try {
      photo = await uploadPhoto(a, 1);
    } finally {
      await a.stop();
    }
    ageAll(cwd);

    const b = serving(await serve(cwd, ['--db', second, '--no-demo']));
    try {
      // A request answered: whatever the server does as it starts is done by now.
      assert.equal((await fetch(`${b.url}/v2.4/me`)).status, 400);
    } finally {
      await b.stop();
    }

    const again = serving(await serve(cwd, ['--db', first]));
    try {
      const read = await bytesAt(again, photo.source);
      assert.equal(read.status, 200);
      assert.deepEqual(read.bytes, photo.bytes);
    } finally {
      await again.stop();
    }
    firstFolder = mediaDirOf(again);
    assert.notEqual(mediaDirOf(b), firstFolder, 'each database has a folder of its own');
  });

  it("refuses to serve a database on another's folder, by --media-dir or LOOM_MEDIA_DIR, naming both", async () => {
    for (const [args, env] of [[['--media-dir', firstFolder], {}], [[], { LOOM_MEDIA_DIR: firstFolder }]] as const) {
      const refused = await serve(cwd, ['--db', second, '--no-demo', ...args], env);
      if ('url' in refused) await refused.stop();
      assert.ok('code' in refused, "the second database is not served on the first one's folder");
      assert.equal(refused.code, 2);
      assert.match(refused.output, new RegExp(`The media folder ${escaped(firstFolder)} belongs to ${escaped(shown(first))} \\(database id [0-9a-f]{32}\\)`));
      assert.match(refused.output, new RegExp(`${escaped(shown(second))} \\(database id [0-9a-f]{32}\\) cannot keep its media there`));
    }
    assert.deepEqual(readFileSync(join(firstFolder, 'photos', photo.key.slice(0, 2), photo.key)), photo.bytes, 'nothing was swept');
  });

  it('keeps reading photos from the shared folder of earlier versions, which it claims, and never sweeps what was there before', async () => {
    const old = join(root, 'upgraded');
    mkdirSync(old);
    const legacy = join(old, 'loom-media');
    const db = databaseIn(old, 'kept');
    const a = serving(await serve(old, ['--db', db, '--media-dir', legacy]));
    let kept: { source: string; key: string; bytes: Buffer };
    try {
      kept = await uploadPhoto(a, 2);
    } finally {
      await a.stop();
    }
    // As an earlier version left it after a kill: no owner, the photo staged, and a file of some other database beside.
    rmSync(join(legacy, 'owner.json'), { force: true });
    const published = join(legacy, 'photos', kept.key.slice(0, 2), kept.key);
    renameSync(published, `${published}.staged`);
    const stranger = join(legacy, 'photos', 'ab', `ab${randomBytes(15).toString('hex')}`);
    mkdirSync(join(stranger, '..'), { recursive: true });
    writeFileSync(stranger, "another database's photo");
    ageAll(legacy);

    const upgraded = serving(await serve(old, ['--db', db]));
    try {
      await until(() => /^Media: /m.test(upgraded.output()), 'the sweep at start');
      assert.equal(existsSync(stranger), true, 'a file that was there before the claim is kept');
      assert.match(upgraded.output(), /^Media: 1 committed upload put in place, 0 files nothing uses removed/m);
      assert.equal((await bytesAt(upgraded, kept.source)).status, 200);
    } finally {
      await upgraded.stop();
    }
    assert.equal(mediaDirOf(upgraded), legacy);
    const owner = JSON.parse(readFileSync(join(legacy, 'owner.json'), 'utf8')) as { database: string; adopted: boolean };
    assert.deepEqual([owner.database, owner.adopted], [shown(db), true]);
  });
});

describe('photos across a SIGKILL', () => {
  const cwd = join(root, 'killed');
  mkdirSync(cwd);
  const db = databaseIn(cwd, 'killed');
  const folder = join(cwd, 'media');
  let photo: { source: string; key: string; bytes: Buffer };

  it('reads a photo committed just before a kill right after the restart', async () => {
    const first = serving(await serve(cwd, ['--db', db, '--media-dir', folder]));
    photo = await uploadPhoto(first, 3);
    await first.stop('SIGKILL');
    // The kill came between the commit and the publish: the row is there, the file still staged.
    const published = join(folder, 'photos', photo.key.slice(0, 2), photo.key);
    renameSync(published, `${published}.staged`);

    const second = serving(await serve(cwd, ['--db', db, '--media-dir', folder]));
    try {
      const read = await bytesAt(second, photo.source);
      assert.equal(read.status, 200);
      assert.deepEqual(read.bytes, photo.bytes);
    } finally {
      await second.stop();
    }
  });

  it('removes what killed uploads left staged while it runs, every --media-sweep-interval', async () => {
    const server = serving(await serve(cwd, ['--db', db, '--media-dir', folder, '--media-sweep-interval', '1']));
    try {
      // Uploads killed before their commit leave staged files behind, here after the start.
      const orphans = [1, 2, 3].map(() => {
        const key = randomBytes(16).toString('hex');
        const path = join(folder, 'photos', key.slice(0, 2), `${key}.staged`);
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, 'an upload killed before its commit');
        return path;
      });
      ageAll(folder);
      await until(() => orphans.every((path) => !existsSync(path)), 'the sweep of the orphans');
      assert.equal((await bytesAt(server, photo.source)).status, 200);
    } finally {
      await server.stop();
    }
  });
});

/** How a database is named in messages: a SQLite file by its absolute path, a URL without its password. */
const shown = (db: string) => (testStoreKind === 'sqlite' ? resolve(db) : db.replace(/:[^:@/]*@/, ':***@'));

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Clock.real().now() + 30;
  while (!condition()) {
    assert.ok(Clock.real().now() < deadline, `${what} never happened`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
