import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { appSecretProof } from '../../src/auth/appsecret-proof.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startServer } from '../helpers/server.js';

function loom(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/loom', ...args], { encoding: 'utf8', env: { ...process.env, LOOM_DB: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('loom app', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'loom-app-')), 'apps.db');

  it('explains itself', () => {
    const help = loom('app', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: loom app create --name NAME \[--require-proof\] \[--json\] \[--db PATH\]/);
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
    assert.match(list.stdout, /^ID\s+PROOF\s+NAME$/m);
    assert.match(list.stdout, new RegExp(`^${app.id}\\s+no\\s+My App$`, 'm'));
    assert.match(list.stdout, new RegExp(`^${strictId}\\s+yes\\s+Strict App$`, 'm'));
    const listJson = loom('app', 'list', '--json', '--db', db);
    assert.deepEqual(JSON.parse(listJson.stdout), [
      { id: app.id, name: 'My App', require_proof: false },
      { id: strictId, name: 'Strict App', require_proof: true },
    ]);
    for (const output of [list.stdout, listJson.stdout]) {
      assert.ok(!output.includes(app.secret) && !output.includes(strictSecret), 'no secret is ever listed');
    }

    const store = openSqliteStore(db);
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
});
