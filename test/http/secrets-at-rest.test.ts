import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.js';
import { hashToken } from '../../src/auth/tokens.js';
import { runDialog } from '../helpers/browser.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';
import { selectRows, storedBytes } from '../helpers/test-store.js';

const PASSWORD = 'plain-text-password-7f3a';
const REDIRECT = 'https://app.example/cb';

describe('secrets at rest', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  const secrets: Record<string, string> = {};

  before(async () => {
    ({ fixture, server } = served);
    await fixture.store.setCredentials({ userId: fixture.users.carol, email: 'carol@example.com', passwordHash: await hashPassword(PASSWORD) });
    const client = { client_id: String(fixture.app.id), client_secret: fixture.app.secret };
    const run = { clientId: String(fixture.app.id), redirectUri: REDIRECT, scope: 'user_friends', email: 'carol@example.com', password: PASSWORD };

    // A code left waiting in auth_codes, another one exchanged for a token, and that token made long-lived.
    secrets.pendingCode = (await runDialog(server.url, run)).location.searchParams.get('code')!;
    secrets.usedCode = (await runDialog(server.url, run)).location.searchParams.get('code')!;
    const short = await server.get('/v2.4/oauth/access_token', { ...client, redirect_uri: REDIRECT, code: secrets.usedCode });
    secrets.shortToken = short.body.access_token;
    const long = await server.get('/v2.4/oauth/access_token', { ...client, grant_type: 'fb_exchange_token', fb_exchange_token: secrets.shortToken! });
    secrets.longToken = long.body.access_token;
    secrets.fragmentToken = new URLSearchParams((await runDialog(server.url, { ...run, responseType: 'token' })).location.hash.slice(1)).get('access_token')!;
    secrets.password = PASSWORD;
    for (const [name, value] of Object.entries(secrets)) assert.ok(value && value.length >= 20, name);
  });

  it('keeps tokens and codes only as SHA-256 hashes, and the password as an scrypt hash', async () => {
    const tokens = await selectRows<{ hash: string }>(fixture.store, 'SELECT hash FROM tokens WHERE user_id = ?', [fixture.users.carol]);
    const tokenHashes = new Set(tokens.map((row) => row.hash));
    for (const name of ['shortToken', 'longToken', 'fragmentToken']) assert.ok(tokenHashes.has(hashToken(secrets[name]!)), name);
    const codes = await selectRows<{ hash: string }>(fixture.store, 'SELECT hash FROM auth_codes WHERE user_id = ?', [fixture.users.carol]);
    assert.deepEqual(codes.map((row) => row.hash), [hashToken(secrets.pendingCode!)]);
    const [credentials] = await selectRows<{ password_hash: string }>(fixture.store, 'SELECT password_hash FROM credentials WHERE user_id = ?', [fixture.users.carol]);
    assert.match(credentials!.password_hash, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  });

  it('never writes a token, a code or a password in clear anywhere in the database files', async () => {
    const bytes = await storedBytes(fixture.store, fixture.path);
    // The scan itself works: the hash of a token is there to be found.
    assert.ok(bytes.includes(Buffer.from(hashToken(secrets.longToken!))), 'the token hashes are in the file');
    for (const [name, value] of Object.entries(secrets)) {
      assert.equal(bytes.includes(Buffer.from(value)), false, `${name} is not stored in clear`);
      // Nor a telling piece of it (the part after the fixed prefix).
      assert.equal(bytes.includes(Buffer.from(value.slice(4, 24))), false, `no part of ${name} is stored`);
    }
  });
});
