import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appSecretProof } from '../../src/auth/appsecret-proof.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { Browser, runDialog } from '../helpers/browser.js';
import { loom } from '../helpers/cli.js';
import { startServer } from '../helpers/server.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

describe('loom app', () => {
  const db = scratchLocation();

  it('explains itself', () => {
    const help = loom('app', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: loom app create --name NAME \[--id ID --secret SECRET\] \[--redirect-uri URL\]\.\.\. \[--business ID\] \[--require-proof\]\n\s+\[--api-version V\] \[--json\] \[--db PATH\|URL\]/);
    assert.match(help.stdout, /loom app update ID \[--name NAME\]/);
    assert.match(help.stdout, /\[--api-version V\] \[--restrictions JSON\]/);
    assert.match(help.stdout, /loom app delete ID \[--db PATH\|URL\]/);
    assert.match(help.stdout, /^\s+--db PATH\|URL\s+SQLite file or postgres:\/\/ URL/m);
    assert.match(help.stdout, /loom app list/);
    assert.equal(loom('app', 'create', '--help').code, 0);
    assert.match(loom('--help').stdout, /\bapp\b.*register an app/);
  });

  it('refuses a missing action, an unknown one and a missing name', () => {
    for (const args of [['app'], ['app', 'frobnicate'], ['app', 'create', '--db', db], ['app', 'create', '--name', ' ', '--db', db], ['app', 'list', '--name', 'x', '--db', db]]) {
      const run = loom(...args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /Usage: loom app/);
    }
  });

  it('creates an app whose id|secret is a working app token, and lists apps without their secrets', async () => {
    const created = loom('app', 'create', '--name', 'My App', '--json', '--db', db);
    assert.equal(created.code, 0, created.stderr);
    const app = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(app), ['id', 'secret']);
    assert.match(app.id, /^\d+$/);
    assert.match(app.secret, /^[0-9a-f]{64}$/);

    const strict = loom('app', 'create', '--name', 'Strict App', '--require-proof', '--db', db);
    assert.equal(strict.code, 0, strict.stderr);
    const strictId = /App id:\s+(\d+)/.exec(strict.stdout)![1]!;
    const strictSecret = /App secret:\s+([0-9a-f]{64})/.exec(strict.stdout)![1]!;
    assert.match(strict.stdout, /requires appsecret_proof/);

    const list = loom('app', 'list', '--db', db);
    assert.equal(list.code, 0);
    assert.match(list.stdout, /^ID\s+PROOF\s+BUSINESS\s+NAME$/m);
    assert.match(list.stdout, new RegExp(`^${app.id}\\s+no\\s+-\\s+My App$`, 'm'));
    assert.match(list.stdout, new RegExp(`^${strictId}\\s+yes\\s+-\\s+Strict App$`, 'm'));
    const listJson = loom('app', 'list', '--json', '--db', db);
    assert.deepEqual(JSON.parse(listJson.stdout), [
      { id: app.id, name: 'My App', require_proof: false, business_id: null, redirect_uris: [], api_version: null },
      { id: strictId, name: 'Strict App', require_proof: true, business_id: null, redirect_uris: [], api_version: null },
    ]);
    for (const output of [list.stdout, listJson.stdout]) {
      assert.ok(!output.includes(app.secret) && !output.includes(strictSecret), 'no secret is ever listed');
    }

    const store = await openLocation(db);
    const server = await startServer(store);
    try {
      const token = `${app.id}|${app.secret}`;
      const node = await server.get(`/v2.4/${app.id}`, { access_token: token, fields: 'id,name' });
      assert.deepEqual(node.body, { id: app.id, name: 'My App' });
      const issued = await server.get('/v2.4/oauth/access_token', { grant_type: 'client_credentials', client_id: app.id, client_secret: app.secret });
      assert.equal(issued.body.access_token, token);
      const wrong = await server.get(`/v2.4/${app.id}`, { access_token: `${app.id}|${strictSecret}` });
      assert.equal(wrong.body.error.code, 190);

      const strictToken = `${strictId}|${strictSecret}`;
      assert.equal((await server.get(`/v2.4/${strictId}`, { access_token: strictToken })).status, 400, 'proof required');
      const proven = await server.get(`/v2.4/${strictId}`, { access_token: strictToken, appsecret_proof: appSecretProof(strictSecret, strictToken) });
      assert.equal(proven.status, 200);
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('registers redirect URIs, which the dialog then accepts with the paths below them, and refuses malformed ones', async () => {
    const file = scratchLocation();
    for (const bad of ['https://my.app/cb?x=1', 'https://my.app/cb#top', 'ftp://my.app/cb', 'my.app/cb', 'https://me@my.app/cb']) {
      const run = loom('app', 'create', '--name', 'Bad', '--redirect-uri', bad, '--db', file);
      assert.equal(run.code, 2, bad);
      assert.match(run.stderr, /--redirect-uri: /, bad);
    }
    const many = Array.from({ length: 21 }, (_, i) => ['--redirect-uri', `https://my.app/${i}`]).flat();
    assert.match(loom('app', 'create', '--name', 'Many', ...many, '--db', file).stderr, /at most 20 --redirect-uri/);

    const created = loom('app', 'create', '--name', 'Redirecting', '--redirect-uri', 'https://My.App:443/callback', '--redirect-uri', 'https://my.app/other/', '--db', file);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^ {2}Redirect URI: https:\/\/my\.app\/callback$/m);
    const id = /App id:\s+(\d+)/.exec(created.stdout)![1]!;
    assert.deepEqual(JSON.parse(loom('app', 'list', '--json', '--db', file).stdout), [
      { id, name: 'Redirecting', require_proof: false, business_id: null, redirect_uris: ['https://my.app/callback', 'https://my.app/other/'], api_version: null },
    ]);
    const list = loom('app', 'list', '--db', file).stdout;
    assert.match(list, new RegExp(`^${id}\\s+no\\s+-\\s+Redirecting\\n\\s+redirect URI: https://my\\.app/callback\\n\\s+redirect URI: https://my\\.app/other/$`, 'm'));

    const store = await openLocation(file);
    const server = await startServer(store);
    try {
      const dialog = (redirectUri: string) =>
        new Browser(server.url).open(`${server.url}/v2.4/dialog/oauth?${new URLSearchParams({ client_id: id, redirect_uri: redirectUri })}`);
      assert.equal((await dialog('https://my.app/callback/done')).status, 200);
      assert.equal((await dialog('https://my.app/other/page')).status, 200);
      const refused = await dialog('https://my.app.evil.example/callback');
      assert.equal(refused.status, 400);
      assert.match(refused.html, /URL Blocked/);
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('puts apps in a business: one token_for_business for a person across its apps, over HTTP', async () => {
    const file = scratchLocation();
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      const run = loom('app', 'create', '--name', 'Bad', `--business=${bad}`, '--db', file);
      assert.equal(run.code, 2, bad);
      assert.match(run.stderr, /--business must be a positive whole number/, bad);
    }
    const create = (name: string, ...extra: string[]) => {
      const run = loom('app', 'create', '--name', name, ...extra, '--db', file);
      assert.equal(run.code, 0, run.stderr);
      return /App id:\s+(\d+)/.exec(run.stdout)![1]!;
    };
    const first = create('First', '--business', '42');
    const second = create('Second', '--business', '42');
    const other = create('Other', '--business', '43');
    const alone = create('Alone');
    assert.match(loom('app', 'list', '--db', file).stdout, new RegExp(`^${second}\\s+no\\s+42\\s+Second$`, 'm'));
    const listed = JSON.parse(loom('app', 'list', '--json', '--db', file).stdout) as Array<{ id: string; business_id: string | null }>;
    assert.deepEqual(listed.map((app) => [app.id, app.business_id]), [[first, '42'], [second, '42'], [other, '43'], [alone, null]]);

    const store = await openLocation(file);
    const [person] = (await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Bea Business' } } }])).results as number[];
    await store.setCredentials({ userId: person!, email: 'bea@example.com', passwordHash: await hashPassword('pw') });
    const server = await startServer(store);
    try {
      const tokenIn = async (appId: string) => {
        const run = { clientId: appId, redirectUri: 'http://localhost/cb', responseType: 'token' as const, email: 'bea@example.com', password: 'pw' };
        return new URLSearchParams((await runDialog(server.url, run)).location.hash.slice(1)).get('access_token')!;
      };
      const tokens = { first: await tokenIn(first), second: await tokenIn(second), other: await tokenIn(other), alone: await tokenIn(alone) };
      const me = async (token: string) => (await server.get('/v2.4/me', { access_token: token, fields: 'id,token_for_business' })).body;
      const [a, b, c, d] = [await me(tokens.first), await me(tokens.second), await me(tokens.other), await me(tokens.alone)];
      assert.notEqual(a.id, b.id, 'a different id in each app');
      assert.match(a.token_for_business, /^[\w-]{20,}$/);
      assert.equal(a.token_for_business, b.token_for_business, 'one business, one token_for_business');
      assert.notEqual(c.token_for_business, a.token_for_business);
      assert.notEqual(d.token_for_business, a.token_for_business);

      const ids = await server.get('/v2.4/me/ids_for_business', { access_token: tokens.first });
      assert.deepEqual(
        ids.body.data.map((entry: { id: string; app: { id: string } }) => [entry.id, entry.app.id]),
        [[a.id, first], [b.id, second]],
      );
    } finally {
      await server.close();
      await store.close();
    }
  });
});
