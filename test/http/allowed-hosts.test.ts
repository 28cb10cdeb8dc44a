import assert from 'node:assert/strict';
import { request } from 'node:http';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

/** A GET naming the host we choose, as a page whose DNS name was rebound to this machine would send. */
function getWithHost(server: TestServer, path: string, host: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${server.url}${path}`, { headers: { host } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the host names a server answers for', () => {
  let fixture: Fixture;
  let server: TestServer;
  const served = useFixtureServer({ allowedHosts: ['localhost', '127.0.0.1'] });
  before(async () => {
    ({ fixture, server } = served);
  });

  it('answers its own names and refuses any other with a Graph error', async () => {
    const path = `/v2.4/me?access_token=${fixture.aliceToken}`;
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST']) {
      assert.equal((await getWithHost(server, path, host)).status, 200, host);
    }
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1.evil.example']) {
      const refused = await getWithHost(server, path, host);
      assert.equal(refused.status, 421, host);
      assert.equal(refused.body.error.code, 100);
      assert.match(refused.body.error.message, /does not answer for the host/);
    }
  });
});
