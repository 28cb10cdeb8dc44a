import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newNonce, sealTicket, ticketKey, TICKET_SECONDS } from '../../src/auth/dialog-ticket.js';
import { businessTokenKey } from '../../src/auth/business-tokens.js';
import { LOOM } from '../helpers/cli.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-export-secrets-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Runs loom with standard input or output connected to a file, as a shell redirection does. */
function loomWithFiles(args: string[], files: { stdin?: string; stdout?: string }) {
  const input = files.stdin === undefined ? 'ignore' : openSync(files.stdin, 'r');
  const output = files.stdout === undefined ? 'pipe' : openSync(files.stdout, 'w', 0o644);
  try {
    const result = spawnSync(process.execPath, [LOOM, ...args], { stdio: [input, output, 'pipe'], encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
    return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr };
  } finally {
    if (typeof input === 'number') closeSync(input);
    if (typeof output === 'number') closeSync(output);
  }
}

/** Every string anywhere in the export's records: what a thief holding the file has to try. */
function stringsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

describe('exports and server keys', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  const plain = join(directory, 'plain.ndjson');
  const withKeys = join(directory, 'keys.ndjson');
  let keysRun: { code: number | null; stderr: string };

  before(async () => {
    ({ fixture, server } = served);
    // The business key exists once someone asked for a token_for_business; make it now.
    await businessTokenKey(fixture.store);
    const plainRun = loomWithFiles(['export', '--db', fixture.path], { stdout: plain });
    assert.equal(plainRun.code, 0, plainRun.stderr);
    keysRun = loomWithFiles(['export', '--db', fixture.path, '--keys', '--secrets'], { stdout: withKeys });
    assert.equal(keysRun.code, 0, keysRun.stderr);
  });

  /** Posts a consent ticket signed with `key` for Alice, as a forger would; the answer's status. */
  async function forge(key: Buffer): Promise<number> {
    const nonce = newNonce();
    const ticket = sealTicket(key, {
      stage: 'consent',
      appId: fixture.app.id,
      redirectUri: 'https://app.example/cb',
      scopes: ['user_posts'],
      responseType: 'token',
      userId: fixture.users.alice,
      nonce,
      expiresAt: fixture.now + TICKET_SECONDS,
    });
    const reply = await server.fetch(`${server.url}/v2.4/dialog/oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `loom_dialog=${nonce}` },
      body: new URLSearchParams({ ticket, decision: 'allow', scope: 'user_posts' }).toString(),
      redirect: 'manual',
    });
    return reply.status;
  }

  it('signs nobody in with anything a plain export holds', async () => {
    // The forgery itself works with the real key, so a refusal below is the key's absence.
    assert.equal(await forge(await ticketKey(fixture.store)), 302);
    const records = readFileSync(plain, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const candidates = [...stringsOf(records)].filter((text) => text.length >= 16);
    assert.ok(candidates.length > 10);
    for (const candidate of candidates) {
      const keys = /^[0-9a-f]+$/.test(candidate) ? [Buffer.from(candidate, 'hex'), Buffer.from(candidate)] : [Buffer.from(candidate)];
      for (const key of keys) assert.equal(await forge(key), 403, `forged with ${candidate}`);
    }
  });

  it('leaves out the server keys and the app secrets unless asked', async () => {
    const text = readFileSync(plain, 'utf8');
    const signingKey = (await ticketKey(fixture.store)).toString('hex');
    const businessKey = await businessTokenKey(fixture.store);
    for (const secret of [signingKey, businessKey, fixture.app.secret]) assert.equal(text.includes(secret), false);
    assert.doesNotMatch(text, /"secret"/);

    const full = readFileSync(withKeys, 'utf8');
    for (const secret of [signingKey, businessKey, fixture.app.secret]) assert.equal(full.includes(secret), true);
    assert.equal(statSync(withKeys).mode & 0o777, 0o600, 'an export with keys is readable by its owner only');
    assert.equal(statSync(plain).mode & 0o777, 0o644, 'a plain export keeps the mode it was given');
    assert.match(keysRun.stderr, /Warning: .*sign in as anyone/);
  });

  it('gives a copy made from a plain export fresh keys and fresh app secrets', async () => {
    const target = scratchLocation();
    const imported = loomWithFiles(['import', '--db', target], { stdin: plain });
    assert.equal(imported.code, 0, imported.stderr);
    const copy = await openLocation(target);
    try {
      const app = (await copy.getApps([fixture.app.id])).get(fixture.app.id)!;
      assert.match(app.secret, /^[0-9a-f]{64}$/);
      assert.notEqual(app.secret, fixture.app.secret);
      assert.notDeepEqual(await ticketKey(copy), await ticketKey(fixture.store));
      assert.notEqual(await businessTokenKey(copy), await businessTokenKey(fixture.store));
    } finally {
      await copy.close();
    }
  });
});
