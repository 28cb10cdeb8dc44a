import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { send, type Sent } from '../helpers/paced-request.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import type { TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;

/** A request Loom answers before reading its whole body, and whether its connection then closes. */
interface EarlyAnswer {
  request: () => Sent;
  /**
   * Whether the answer closes the connection (a body too large or without a length to be worth
   * reading), saying so; otherwise the rest of the body is read and the connection serves on.
   */
  closes: boolean;
}

describe('a connection answered before its body was read', () => {
  // Images and videos of at most 100 kB: a multipart body may be about 2 MiB.
  const served = useFixtureServer({ maxImageBytes: 100_000, maxVideoBytes: 100_000 });
  let fixture: Fixture;
  let server: TestServer;

  before(() => ({ fixture, server } = served));

  const photos = () => `/v2.4/me/photos?access_token=${fixture.aliceToken}`;
  const early: Record<string, EarlyAnswer> = {
    'a multipart body without a boundary': {
      request: () => ({ method: 'POST', path: photos(), headers: { 'content-type': 'multipart/form-data' }, pieces: ['x'.repeat(64 * 1024)] }),
      closes: false,
    },
    'a multipart body that breaks off into garbage': {
      request: () => ({
        method: 'POST',
        path: photos(),
        headers: { 'content-type': 'multipart/form-data; boundary=zz' },
        pieces: [`--zz\r\nContent-Disposition: form-data; name="message"\r\n\r\nhi\r\n--zz\r\n\r\n${'garbage '.repeat(256 * 1024)}`],
      }),
      closes: false,
    },
    'a form body over the limit': {
      request: () => ({
        method: 'POST',
        path: `/v2.4/me/feed?access_token=${fixture.aliceToken}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        pieces: [`message=${'a'.repeat(MiB + 1000)}`],
      }),
      closes: false,
    },
    'a GET that carries a body': {
      request: () => ({
        method: 'GET',
        path: `/v2.4/me?access_token=${fixture.aliceToken}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        pieces: ['fields=id&'.repeat(2000)],
      }),
      closes: false,
    },
    'a multipart upload declared far larger than the limit': {
      request: () => ({
        method: 'POST',
        path: photos(),
        headers: { 'content-type': 'multipart/form-data; boundary=zz' },
        pieces: [`--zz\r\nContent-Disposition: form-data; name="source"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`, Buffer.alloc(12 * MiB, 0x61)],
      }),
      closes: true,
    },
    'a multipart body without a boundary, sent without a length': {
      request: () => ({ method: 'POST', path: photos(), headers: { 'content-type': 'multipart/form-data', 'transfer-encoding': 'chunked' }, pieces: ['x'.repeat(64 * 1024)] }),
      closes: true,
    },
  };

  it('answers the next request sent on a kept-alive connection, whatever the early answer was', async () => {
    const agents: Agent[] = [];
    try {
      await Promise.all(
        Object.entries(early).map(async ([name, { request, closes }]) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          agents.push(agent);
          const first = await send(server.url, agent, request());
          assert.ok(first.status >= 200, `${name}: ${first.status} ${first.body.slice(0, 200)}`);
          // The next request reuses the connection unless the answer said it would close; its body
          // arrives in two halves, a few seconds apart, the way an upload from a busy client does.
          const body = `access_token=${fixture.aliceToken}&message=${encodeURIComponent(`after ${name}`)}`;
          const next = await send(server.url, agent, {
            method: 'POST',
            path: '/v2.4/me/feed',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            pieces: [body.slice(0, 20), body.slice(20)],
            pauseMs: 3000,
          });
          assert.equal(next.status, 200, `${name}: ${next.body}`);
          assert.match(JSON.parse(next.body).id, /^\d+_\d+$/);
          if (closes) {
            assert.equal(first.headers.connection, 'close', name);
            assert.notEqual(next.port, first.port, `${name}: a connection that said it would close was used again`);
          } else {
            assert.equal(first.headers.connection, 'keep-alive', name);
            assert.equal(next.port, first.port, `${name}: the connection was not kept`);
            // Nor did the client see its first request fail once answered (a reset while it still sent).
            assert.deepEqual(first.lateErrors, [], name);
          }
        }),
      );
    } finally {
      agents.forEach((agent) => agent.destroy());
    }
  });
});
