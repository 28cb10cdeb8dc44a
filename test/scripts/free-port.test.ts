import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { freePort } from '../helpers/cli.js';

const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';

describe('the free ports the tests start servers on', () => {
  it('lie below the range the system hands out to port 0 and to outgoing connections', { skip: !existsSync(RANGE_FILE) && 'Linux only' }, async () => {
    const [lowest] = readFileSync(RANGE_FILE, 'utf8').trim().split(/\s+/).map(Number);
    for (let i = 0; i < 20; i++) assert.ok((await freePort()) < lowest!, `a port at or above ${lowest}, which the system may give out meanwhile`);
  });

  it('are free: a server can listen on one', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
