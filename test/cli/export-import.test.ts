import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueUserToken } from '../../src/auth/tokens.js';
import type { Store } from '../../src/store/store.js';
import { LOOM, loom } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { openLocation, scratchLocation, testStoreKind } from '../helpers/test-store.js';
import { Clock } from '../../src/clock/clock.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-export-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Runs loom with standard input and output connected to files, as a shell redirection does. */
function loomWithFiles(args: string[], files: { stdin?: string; stdout?: string }) {
  const input = files.stdin === undefined ? 'ignore' : openSync(files.stdin, 'r');
  const output = files.stdout === undefined ? 'pipe' : openSync(files.stdout, 'w');
  try {
    const result = spawnSync(process.execPath, [LOOM, ...args], { stdio: [input, output, 'pipe'], encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
    return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr };
  } finally {
    if (typeof input === 'number') closeSync(input);
    if (typeof output === 'number') closeSync(output);
  }
}

function exportTo(db: string, file: string, ...flags: string[]): void {
  const result = loomWithFiles(['export', '--db', db, ...flags], { stdout: file });
  assert.equal(result.code, 0, result.stderr);
}

function importFrom(db: string, file: string) {
  return loomWithFiles(['import', '--db', db], { stdin: file });
}

/** Trace ids differ from request to request; everything else of a body must match. */
const comparable = (text: string) => text.replace(/"fbtrace_id":"[^"]*"/g, '"fbtrace_id":"…"');

describe(`loom export and import: SQLite to ${testStoreKind} and back`, () => {
  const source = scratchLocation('sqlite');
  const copy = scratchLocation();
  const back = scratchLocation('sqlite');
  const [firstFile, secondFile] = [join(directory, 'first.ndjson'), join(directory, 'second.ndjson')];
  const stores: Store[] = [];
  const servers: TestServer[] = [];
  let token: string;
  let appId: string;
  const now = Math.floor(Date.now() / 1000);
  const DAY = 86_400;

  before(async () => {
    const seeded = loom('seed', '--db', source);
    assert.equal(seeded.code, 0, seeded.stderr);
    ({ access_token: token, app_id: appId } = JSON.parse(loom('token', '--db', source, '--json').stdout));
    exportTo(source, firstFile, '--tokens');
    const imported = importFrom(copy, firstFile);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^Imported [\d,]+ records into /);
    exportTo(copy, secondFile, '--tokens');
    assert.equal(importFrom(back, secondFile).code, 0);

    for (const location of [source, copy, back]) {
      const store = await openLocation(location);
      stores.push(store);
      servers.push(await startServer(store, { clock: Clock.frozenAt(now), publicUrl: 'https://loom.test' }));
    }
  });
  after(async () => {
    for (const server of servers) await server.close();
    for (const store of stores) await store.close();
  });

  /** The same request to every copy; each must answer exactly what the source answers. */
  async function same(path: string, params: Record<string, string> = {}): Promise<any> {
    const replies = await Promise.all(servers.map((server) => server.get(path, { access_token: token, ...params })));
    const [original, ...copies] = replies.map((reply) => `${reply.status} ${comparable(reply.text)}`);
    for (const copied of copies) assert.equal(copied, original, `${path} ${JSON.stringify(params)}`);
    return replies[0]!.body;
  }

  it('writes every record once, and the copy exports the same records', () => {
    const [first, second] = [firstFile, secondFile].map((file) => readFileSync(file, 'utf8').trim().split('\n'));
    const header = JSON.parse(first![0]!);
    assert.equal(header.format, 'loom-graph');
    assert.ok(header.records.object > 1000 && header.records.association > 10_000 && header.records.token >= 1);
    assert.deepEqual(JSON.parse(first!.at(-1)!), { end: true, records: first!.length - 2 });
    // Lines are compared as sets: stores may order text keys by different collations.
    assert.deepEqual([...second!].sort(), [...first!].sort());
  });

  it('answers 20 varied queries with the same bytes on every copy', async () => {
    assert.match((await same('/v2.4/me')).name, /\w+ \w+/);
    const friend = (await same('/v2.4/me/friends', { limit: '1' })).data[0].id;
    const post = (await same('/v2.4/me/posts', { limit: '1', fields: 'id' })).data[0].id;
    const page = (await same('/v2.4/me/likes', { limit: '1' })).data[0].id;
    const album = (await same('/v2.4/me/albums', { limit: '1' })).data[0].id;
    const firstPage = await same('/v2.4/me/friends', { limit: '3' });
    await same('/v2.4/me', { fields: 'id,name,first_name,last_name,birthday,email,gender,locale,hometown,location,significant_other,cover' });
    const nested = await same('/v2.4/me', { fields: 'friends.limit(25){name,posts.limit(5){message,likes.limit(5).summary(true){name}}}' });
    assert.ok(nested.friends.data.some((f: any) => f.posts?.data.some((p: any) => p.likes.data.length > 0)), 'the copies hold likes');
    await same('/v2.4/me/feed', { limit: '5', fields: 'message,story,from,to,created_time,privacy,likes.limit(0).summary(true),comments.limit(2).summary(true){message,from}' });
    await same('/v2.4/me/friends', { limit: '3', after: firstPage.paging.cursors.after });
    await same('/v2.4/me/posts', { limit: '4', since: String(now - 90 * DAY), until: String(now - 7 * DAY) });
    await same('/v2.4/me', { metadata: '1' });
    await same(`/v2.4/${friend}`, { fields: 'name,birthday,posts.limit(2){message,likes.summary(true).limit(1)}' });
    await same(`/v2.4/${post}`, { fields: 'message,from,created_time,updated_time,likes.limit(3){name},comments.limit(3){message,from,like_count}' });
    assert.ok((await same(`/v2.4/${post}/likes`, { limit: '10', summary: 'true' })).summary.total_count >= 0);
    await same(`/v2.4/${post}/comments`, { limit: '5' });
    await same(`/v2.4/${page}`, { fields: 'name,category,about,likes.limit(3)' });
    await same(`/v2.4/${album}`, { fields: 'name,photos.limit(3){name,width,height,likes.summary(true)}' });
    await same('/v2.4/me/photos', { limit: '4', fields: 'name,album,created_time' });
    await same(`/v2.4/${appId}`);
    await same('/v2.4/me/bogus');
    await same('/v2.4/12345678901234');
  });

  it('hands out the next object id where the source would', async () => {
    const replies = await Promise.all(
      servers.map((server) =>
        server.fetch(`${server.url}/v2.4/me/feed`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ access_token: token, message: 'After the copy' }).toString(),
        }),
      ),
    );
    assert.ok(replies.every((reply) => reply.status === 200));
    assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1, replies.map((reply) => reply.text).join(' '));
  });

  it('copies tokens, revoked ones too, only when asked', async () => {
    // A friend of the demo user signed in to the demo app, then removed it: a revoked token.
    const original = stores[0]!;
    const [demoApp, demoUser] = [Number(await original.getSetting('demo.app_id')), Number(await original.getSetting('demo.user_id'))];
    const friend = (await original.getPages({ type: 'friends', id1s: [demoUser], limit: 1 })).get(demoUser)![0]!.id2;
    await issueUserToken(original, { appId: demoApp, userId: friend, scopes: ['public_profile'], expiresIn: 0, now });
    await original.revokeTokens(demoApp, friend, now);

    const [withTokens, withoutTokens] = [join(directory, 'tokens.ndjson'), join(directory, 'no-tokens.ndjson')];
    exportTo(source, withTokens, '--tokens');
    exportTo(source, withoutTokens);
    assert.match(readFileSync(withTokens, 'utf8'), /"record":"token"/);
    assert.match(readFileSync(withTokens, 'utf8'), /"record":"revokedToken"/);
    assert.doesNotMatch(readFileSync(withoutTokens, 'utf8'), /"record":"(token|revokedToken)"/);
    const target = scratchLocation();
    assert.equal(importFrom(target, withoutTokens).code, 0);
    const store = await openLocation(target);
    try {
      const server = await startServer(store);
      const reply = await server.get('/v2.4/me', { access_token: token });
      await server.close();
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 190);
    } finally {
      await store.close();
    }
  });

  it('refuses a non-empty database, a foreign file and a file cut short', () => {
    const full = importFrom(copy, firstFile);
    assert.equal(full.code, 2);
    assert.match(full.stderr, /is not empty/);

    const foreign = join(directory, 'foreign.ndjson');
    writeFileSync(foreign, '{"hello":"world"}\n');
    const refused = importFrom(scratchLocation(), foreign);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /line 1: the input is not the output of "loom export"/);

    const cut = join(directory, 'cut.ndjson');
    writeFileSync(cut, readFileSync(firstFile, 'utf8').split('\n').slice(0, 2500).join('\n'));
    const partial = importFrom(scratchLocation(), cut);
    assert.equal(partial.code, 2);
    // Records load 20,000 to a transaction, so none of these 2,499 was written.
    assert.match(partial.stderr, /the input ends before the export's closing line, so it was cut short\n/);
  });

  it('refuses a record whose key or other required field is missing or null, naming its line', async () => {
    const user = { record: 'object', id: 9001, type: 'user', owner: null, createdTime: 1, updatedTime: 1, data: {} };
    const file = join(directory, 'incomplete.ndjson');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...user, id: undefined }, /line 3: the object record has no "id"/],
      [{ ...user, id: null }, /line 3: the object record has no "id"/],
      [{ ...user, data: null }, /line 3: the object record has no "data"/],
      [{ record: 'association', id1: 9001, type: 'friends', id2: null, time: 1, data: null }, /line 3: the association record has no "id2"/],
      [{ record: 'grant', appId: 1, userId: 9001, status: 'granted' }, /line 3: the grant record has no "scope"/],
      [{ record: 'token', hash: 'h', kind: 'app', appId: 1, userId: null, scopes: [], issuedAt: 1 }, /line 3: the token record has no "expiresAt"/],
      [{ record: 'idSequence' }, /line 3: the idSequence record has no "last"/],
      [{ ...user, owner: 'nobody' }, /line 3: the object record's "owner" is not a whole number/],
    ];
    for (const [record, message] of cases) {
      writeFileSync(file, [JSON.stringify({ format: 'loom-graph', version: 1, records: { object: 2 } }), JSON.stringify(user), JSON.stringify(record), JSON.stringify({ end: true, records: 2 })].join('\n'));
      const target = scratchLocation();
      const refused = importFrom(target, file);
      assert.equal(refused.code, 2, JSON.stringify(record));
      assert.match(refused.stderr, message);
      const store = await openLocation(target);
      try {
        assert.equal(await store.countRecords('object'), 0, 'nothing was loaded');
      } finally {
        await store.close();
      }
    }

    // Null where the schema allows it: an app token has no user, an association no data.
    const allowed = [
      user,
      { record: 'association', id1: 9001, type: 'friends', id2: 9001, time: 1, data: null },
      { record: 'token', hash: 'a'.repeat(64), kind: 'app', appId: 1, userId: null, scopes: [], issuedAt: 1, expiresAt: 0 },
    ];
    writeFileSync(file, [JSON.stringify({ format: 'loom-graph', version: 1, records: { object: 1, association: 1, token: 1 } }), ...allowed.map((r) => JSON.stringify(r)), JSON.stringify({ end: true, records: 3 })].join('\n'));
    const imported = importFrom(scratchLocation(), file);
    assert.equal(imported.code, 0, imported.stderr);
  });
});
