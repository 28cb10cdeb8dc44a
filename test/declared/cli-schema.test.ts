/**
 * The declaration file from the command line: problems named by file, line and key; a server
 * that refuses to start on them; `schema apply`, `token --principal` and `serve --db` on a
 * fresh database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { spawnSync } from 'node:child_process';
import { LOOM, loom, spawnLoom, startServe } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';
import { BOOKCLUB_CODE, BOOKCLUB_YAML } from './bookclub-schema.js';
import { PATIENCE_MS } from '../helpers/patience.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-schema-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const BOOKCLUB = { 'bookclub.loom.yaml': BOOKCLUB_YAML, 'bookclub.code.mjs': BOOKCLUB_CODE, 'package.json': '{"type":"module"}', 'bookclub.code.js': BOOKCLUB_CODE };

describe('loom schema and the declaration file', () => {
  it('names the file, line and key of every problem, and refuses to apply or serve', () => {
    const broken = BOOKCLUB_YAML.replace('max: 5, write: owner', 'max: 5, wrte: owner')
      .replace('read: {follows: review}', 'read: {folows: review}')
      .replace('to: review\n        backed_by: review.book', 'to: reveiw\n        backed_by: review.book');
    const dir = folder({ ...BOOKCLUB, 'bookclub.loom.yaml': broken });
    const file = join(dir, 'bookclub.loom.yaml');
    const lineOf = (text: string) => broken.split('\n').findIndex((line) => line.includes(text)) + 1;
    const check = loom('schema', 'check', file);
    assert.equal(check.code, 2);
    assert.ok(check.stderr.includes(`${file}:${lineOf('wrte: owner')}: types.review.fields.rating.wrte: is not a key Loom knows here`), check.stderr);
    assert.ok(check.stderr.includes(`${file}:${lineOf('folows')}: types.comment.read:`), check.stderr);
    const db = join(dir, 'club.db');
    const served = loom('serve', '--schema', file, '--db', db, '--port', '0');
    assert.equal(served.code, 2);
    assert.match(served.stderr, /the declaration has problems/);
    // Shape problems come first; once the shape is right, references are checked with their lines too.
    const unknownTarget = BOOKCLUB_YAML.replace('to: review\n        backed_by: review.book', 'to: reveiw\n        backed_by: review.book');
    writeFileSync(file, unknownTarget);
    const refs = loom('schema', 'apply', file, '--db', db);
    assert.equal(refs.code, 2);
    const line = unknownTarget.split('\n').findIndex((text) => text.includes('to: reveiw')) + 1;
    assert.ok(refs.stderr.includes(`${file}:${line}: types.book.edges.reviews.to: "reveiw" is not a declared type`), refs.stderr);
  });

  it('refuses a declaration naming a validator or computed field its code module lacks', () => {
    const dir = folder({ ...BOOKCLUB, 'bookclub.code.js': BOOKCLUB_CODE.replace('lowRatingNeedsWords', 'somethingElse') });
    const file = join(dir, 'bookclub.loom.yaml');
    const run = loom('schema', 'apply', file, '--db', join(dir, 'club.db'));
    assert.equal(run.code, 2);
    assert.match(run.stderr, /types\.review\.validate\.0: the code module has no validator "lowRatingNeedsWords"/);
  });

  it('applies, issues a principal token of the schema app, and serves the applied schema', async () => {
    const dir = folder(BOOKCLUB);
    const db = scratchLocation();
    const applied = loom('schema', 'apply', join(dir, 'bookclub.loom.yaml'), '--db', db, '--json');
    assert.equal(applied.code, 0, applied.stderr);
    const result = JSON.parse(applied.stdout) as { version: number; app_id: string };
    assert.equal(result.version, 1);
    const again = JSON.parse(loom('schema', 'apply', join(dir, 'bookclub.loom.yaml'), '--db', db, '--json').stdout) as { version: number | null };
    assert.equal(again.version, null, 'the same file again records nothing');

    const store = openStore(db);
    const now = 1_700_000_000;
    await store.write([
      { op: 'createObject', object: { type: 'member', owner: null, createdTime: now, updatedTime: now, data: { handle: 'ana', name: 'Ana Souza' } } },
      { op: 'setDeclaredKey', type: 'member', key: 'ana', id: { ref: 0 } },
    ]);
    const apps = await store.getApps([Number(result.app_id)]);
    assert.equal(apps.get(Number(result.app_id))?.name, 'bookclub');
    await store.close();

    const unknown = loom('token', '--db', db, '--principal', 'zed');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no member has the key "zed"/);
    const badScope = loom('token', '--db', db, '--principal', 'ana', '--scopes', 'user_posts');
    assert.match(badScope.stderr, /unknown permission user_posts/);
    const token = loom('token', '--db', db, '--principal', 'ana', '--scopes', 'reading_activity,publish', '--json');
    assert.equal(token.code, 0, token.stderr);
    const issued = JSON.parse(token.stdout) as { access_token: string; app_id: string; user_id: string };
    assert.equal(issued.app_id, result.app_id);

    const serve = await startServe('--db', db, '--no-demo');
    try {
      const me = (await (await fetch(`${serve.url}/me?access_token=${issued.access_token}`)).json()) as Record<string, unknown>;
      assert.deepEqual(me, { name: 'Ana Souza', id: issued.user_id });
      assert.match(serve.output(), /Schema "bookclub" \(applied version 1\)/);
    } finally {
      await serve.stop();
    }
  });

  it('diff shows renames, removals and backfills without recording; apply records them', () => {
    const dir = folder(BOOKCLUB);
    const file = join(dir, 'bookclub.loom.yaml');
    const db = join(dir, 'club.db');
    assert.equal(loom('schema', 'apply', file, '--db', db).code, 0);
    writeFileSync(file, BOOKCLUB_YAML.replace('version: 3', 'version: 4')
      .replace('      bio: {type: string,', '      about: {type: string, storage: bio,')
      .replace(/\n {6}settings: \{[^\n]*/, ''));
    const diff = loom('schema', 'diff', file, '--db', db);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /~ field member\.about \(renamed from member\.bio; its data stays where it is\)/);
    assert.match(diff.stdout, /- field member\.settings \(hidden now; its data stays under "settings" until "loom schema prune"\)/);
    const applied = JSON.parse(loom('schema', 'apply', file, '--db', db, '--json').stdout) as { version: number; changes: string[] };
    assert.equal(applied.version, 2, 'diff recorded nothing');
    assert.equal(applied.changes.length, 2);
    const pruned = loom('schema', 'prune', '--db', db);
    assert.match(pruned.stdout, /Pruned field data member\.settings/);
  });

  it('export and import carry the applied schema and the keys to another database', async () => {
    const dir = folder(BOOKCLUB);
    const source = join(dir, 'club.db');
    assert.equal(loom('schema', 'apply', join(dir, 'bookclub.loom.yaml'), '--db', source).code, 0);
    const store = openStore(source);
    await store.write([
      { op: 'createObject', object: { type: 'member', owner: null, createdTime: 1, updatedTime: 1, data: { handle: 'ana', name: 'Ana Souza' } } },
      { op: 'setDeclaredKey', type: 'member', key: 'ana', id: { ref: 0 } },
    ]);
    await store.close();
    const file = join(dir, 'club.ndjson');
    const exported = spawnSync(process.execPath, [LOOM, 'export', '--db', source], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
    writeFileSync(file, exported.stdout);
    assert.match(exported.stdout, /"record":"schemaVersion"/);
    const copy = scratchLocation();
    const imported = spawnSync(process.execPath, [LOOM, 'import', '--db', copy], { input: exported.stdout, encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
    assert.equal(imported.status, 0, imported.stderr);
    const token = loom('token', '--db', copy, '--principal', 'ana', '--json');
    assert.equal(token.code, 0, token.stderr);
  });

  it('serve --schema on a fresh file applies it and serves no demo graph', async () => {
    const dir = folder(BOOKCLUB);
    const serve = spawnLoom('serve', '--schema', join(dir, 'bookclub.loom.yaml'), '--db', join(dir, 'fresh.db'), '--port', '0');
    const deadline = Date.now() + PATIENCE_MS;
    while (!/^A new token/m.test(serve.stdout()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    const out = serve.stdout();
    await serve.stop();
    assert.match(out, /Schema "bookclub" \(applied version 1\)/);
    assert.doesNotMatch(out, /Demo user/);
  });
});
