import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { runDialog } from '../helpers/browser.js';
import { loom, loomWithEnv, startServeWithEnv } from '../helpers/cli.js';
import { openLocation, scratchLocation } from '../helpers/test-store.js';

describe('loom serve token lifetime', () => {
  it('refuses a lifetime that is not a positive whole number', () => {
    const run = loom('serve', '--token-lifetime', 'soon');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--token-lifetime must be a positive whole number/);
    const fromEnv = loomWithEnv({ LOOM_TOKEN_LIFETIME: 'soon' }, 'serve');
    assert.equal(fromEnv.code, 2);
    assert.match(fromEnv.stderr, /^loom serve: LOOM_TOKEN_LIFETIME must be a positive whole number, not "soon"/);
  });

  it('gives dialog tokens the lifetime of LOOM_TOKEN_LIFETIME', async () => {
    const db = scratchLocation();
    const store = await openLocation(db);
    const app = await registerApp(store, { name: 'Lifetime App', now: 1 });
    const [userId] = (await store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data: { name: 'Lee Long' } } }])).results as number[];
    await store.setCredentials({ userId: userId!, email: 'lee@example.com', passwordHash: await hashPassword('pw') });
    await store.close();

    const server = await startServeWithEnv({ LOOM_TOKEN_LIFETIME: '900' }, '--db', db, '--no-demo');
    try {
      const { location } = await runDialog(server.url, { clientId: String(app.id), redirectUri: 'http://localhost/cb', responseType: 'token', email: 'lee@example.com', password: 'pw' });
      assert.equal(new URLSearchParams(location.hash.slice(1)).get('expires_in'), '900');
    } finally {
      await server.stop();
    }
  });
});
