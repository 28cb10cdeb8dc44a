/**
 * A reset and a snapshot restore give back the database whole, table by table with every secret,
 * and the media folder file by file, after writes of every kind made by the server and by the
 * command line in a process of its own.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Clock } from '../../src/clock/clock.js';
import { BOOKCLUB_CODE, BOOKCLUB_YAML } from '../declared/bookclub-schema.js';
import { loom } from '../helpers/cli.js';
import { buildFixture, type Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { eventually } from '../helpers/patience.js';
import { startReceiver, VERIFY_TOKEN, type Receiver } from '../helpers/receiver.js';
import { startServer, type Reply, type TestServer } from '../helpers/server.js';
import { storeTables as tables, tableDifferences as differences } from '../helpers/store-tables.js';
import { selectRows } from '../helpers/test-store.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-reset-state-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Every file of a media folder with a digest of its bytes. */
function files(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(`${relative(folder, path)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    }
  };
  walk(folder);
  return found.sort();
}

describe('reset and snapshot restore, table by table and file by file', () => {
  let fixture: Fixture;
  let server: TestServer;
  let receiver: Receiver;
  const mediaDir = join(directory, 'media');
  const schemaDir = join(directory, 'bookclub');
  const clock = Clock.frozenAt(0);

  const control = (path: string, body: unknown = {}): Promise<Reply> =>
    server.fetch(`${server.url}/_loom${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const cli = (...args: string[]) => {
    const run = loom(...args, '--db', fixture.path);
    assert.equal(run.code, 0, `loom ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  async function uploadPhoto(on: TestServer, seed: number): Promise<{ id: string; key: string }> {
    const body = new FormData();
    body.set('access_token', fixture.aliceToken);
    body.set('message', `Photo ${seed}`);
    body.set('source', new Blob([new Uint8Array(pngBytes(6, 4, seed))], { type: 'image/png' }), 'photo.png');
    const reply = await on.fetch(`${on.url}/v2.4/me/photos`, { method: 'POST', body });
    assert.equal(reply.status, 200, reply.text);
    const { source } = (await on.get(`/v2.4/${reply.body.id}`, { access_token: fixture.aliceToken, fields: 'source' })).body;
    return { id: reply.body.id, key: new URL(source).pathname.split('/').pop()! };
  }

  /** Writes of every kind: the graph, photos and their files, tokens, grants, apps, test users, webhooks, a schema. */
  async function writeEverything(round: number): Promise<void> {
    const ok = (reply: Reply) => assert.equal(reply.status, 200, reply.text);
    const appToken = `${fixture.app.id}|${fixture.app.secret}`;
    ok(await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: `Round ${round}` }));
    ok(await server.form(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.bob)}/comments`, { access_token: fixture.aliceToken, message: 'A comment' }));
    ok(await server.form(`/v2.4/${fixture.postId(fixture.posts.bobs, fixture.users.bob)}/likes`, { access_token: fixture.aliceToken }, round === 1 ? 'DELETE' : 'POST'));
    await uploadPhoto(server, 100 + round);
    const user = await server.form(`/v2.4/${fixture.app.id}/accounts/test-users`, { access_token: appToken, installed: 'true', permissions: 'public_profile,user_posts,publish_actions' });
    ok(user);
    const exchanged = await server.get('/oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: String(fixture.app.id),
      client_secret: fixture.app.secret,
      fb_exchange_token: user.body.access_token,
    });
    ok(exchanged);
    ok(await server.form('/v2.4/me/permissions/user_posts', { access_token: user.body.access_token }, 'DELETE'));
    ok(await server.form(`/v2.4/${fixture.app.id}/subscriptions`, { access_token: appToken, object: 'user', callback_url: receiver.url, fields: 'feed', verify_token: VERIFY_TOKEN }));
    ok(await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: `Delivered ${round}` }));
    // Delivered and done with, so the worker writes nothing more while the state is compared.
    // Every change of the round made into deliveries and every delivery sent, however the
    // worker grouped them, so nothing of the round is still under way when the state is compared.
    await eventually(async () => {
      const outbox = await selectRows(fixture.store, 'SELECT 1 FROM webhook_changes');
      const waiting = await selectRows(fixture.store, `SELECT 1 FROM webhook_deliveries WHERE status <> 'delivered'`);
      const delivered = await selectRows(fixture.store, `SELECT 1 FROM webhook_deliveries WHERE status = 'delivered'`);
      return outbox.length === 0 && waiting.length === 0 && delivered.length > round - 1;
    }, 'every delivery of the round');
    // Another process: the command line.
    cli('app', 'create', '--name', `Made by the CLI ${round}`);
    cli('app', 'update', String(fixture.app.id), '--name', `Renamed ${round}`);
    cli('schema', 'apply', join(schemaDir, 'bookclub.loom.yaml'));
  }

  before(async () => {
    fixture = await buildFixture();
    clock.freeze(fixture.now);
    receiver = await startReceiver();
    mkdirSync(schemaDir);
    for (const [name, text] of Object.entries({ 'bookclub.loom.yaml': BOOKCLUB_YAML, 'bookclub.code.js': BOOKCLUB_CODE, 'package.json': '{"type":"module"}' })) {
      writeFileSync(join(schemaDir, name), text);
    }
    // A photo with its file in the start state, which a test deletes.
    const first = await startServer(fixture.store, { clock, mediaDir, webhooks: { deliver: true, allowPrivate: true, windowMs: 20 } });
    try {
      await uploadPhoto(first, 1);
      // Nothing pending at the start: the worker's own work after a reset is not what is compared.
      await eventually(async () => (await selectRows(fixture.store, 'SELECT 1 FROM webhook_changes')).length === 0, 'the outbox emptied');
    } finally {
      await first.close();
    }
    server = await startServer(fixture.store, { clock, mediaDir, recordStart: true, webhooks: { deliver: true, allowPrivate: true, windowMs: 20 } });
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await fixture.store.close();
  });

  it('resets every table and the media folder to the state the server started with', async () => {
    const [startTables, startFiles] = [await tables(fixture.store), files(mediaDir)];
    const started = await server.get('/v2.4/me/photos', { access_token: fixture.aliceToken, type: 'uploaded' });
    const [photo] = started.body.data as Array<{ id: string }>;
    assert.ok(photo, started.text);
    assert.equal((await server.fetch(`${server.url}/v2.4/${photo.id}?access_token=${fixture.aliceToken}`, { method: 'DELETE' })).status, 200);
    await writeEverything(1);
    assert.notDeepEqual(await tables(fixture.store), startTables);
    assert.notDeepEqual(files(mediaDir), startFiles);

    assert.equal((await control('/reset')).status, 200);
    assert.deepEqual(differences(await tables(fixture.store), startTables), {});
    assert.deepEqual(files(mediaDir), startFiles);
  });

  it('restores a snapshot: every table and the media folder as they were when it was saved', async () => {
    await writeEverything(1);
    assert.equal((await control('/snapshots', { name: 'midway' })).status, 200);
    const [savedTables, savedFiles] = [await tables(fixture.store), files(mediaDir)];
    await writeEverything(2);
    assert.equal((await control('/snapshots/midway/restore')).status, 200);
    assert.deepEqual(differences(await tables(fixture.store), savedTables), {});
    assert.deepEqual(files(mediaDir), savedFiles);
  });
});
