import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fixture } from '../helpers/fixture.js';
import { pngOfSize } from '../helpers/images.js';
import { send } from '../helpers/paced-request.js';
import { rawExchange } from '../helpers/raw-http.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import type { TestServer } from '../helpers/server.js';

/** A short grace keeps the test quick; the default is 5 s. */
const GRACE_MS = 1000;
/** How soon after falling under the rate a trickle must be cut, at most. */
const CUT_WITHIN_MS = 10_000;
const KiB = 1024;

/** A buffer cut into pieces of `size` bytes, in order. */
function piecesOf(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

describe('bodies that come too slowly', () => {
  // The idle timeout stays at its default (30 s): a byte a second never trips it.
  const served = useFixtureServer({ timeouts: { minBodyRate: 240, bodyRateGraceMs: GRACE_MS } });
  let fixture: Fixture;
  let server: TestServer;
  let host: string;

  before(() => {
    ({ fixture, server } = served);
    host = new URL(server.url).host;
  });

  /** A request that declares 100,000 bytes of body, then sends five of them a second. */
  const trickle = () =>
    rawExchange(
      server.url,
      async (socket) => {
        socket.write(
          `POST /v2.4/me/feed?access_token=${fixture.aliceToken} HTTP/1.1\r\nHost: ${host}\r\n` +
            'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n',
        );
        while (!socket.destroyed) {
          socket.write('m');
          await sleep(200);
        }
      },
      GRACE_MS + CUT_WITHIN_MS,
    );

  /** A photo of about 1.5 MiB, sent in pieces at about 1 MiB a second, as from a slow uplink. */
  const upload = () => {
    const head = `--zz\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${fixture.aliceToken}\r\n--zz\r\nContent-Disposition: form-data; name="source"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), pngOfSize(1536 * KiB), Buffer.from('\r\n--zz--\r\n')]);
    return send(server.url, new Agent(), {
      method: 'POST',
      path: '/v2.4/me/photos',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      pieces: piecesOf(body, 64 * KiB),
      pauseMs: 60,
    });
  };

  /** A post of 3 KiB at about 1 KiB a second: slow, but a working connection. */
  const steadyPost = () => {
    const body = Buffer.from(`access_token=${fixture.aliceToken}&message=${'steady '.repeat(440)}`);
    return send(server.url, new Agent(), {
      method: 'POST',
      path: '/v2.4/me/feed',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      pieces: piecesOf(body, 256),
      pauseMs: 250,
    });
  };

  it('cuts bodies trickled under the minimum rate with 408, while uploads at a working rate complete', async () => {
    const [uploaded, posted, ...trickles] = await Promise.all([upload(), steadyPost(), ...Array.from({ length: 5 }, trickle)]);
    for (const answer of trickles) {
      assert.ok(answer.closed, 'the server closed the connection');
      assert.equal(answer.status, 408, answer.body);
      assert.equal(answer.headers['connection'], 'close');
      assert.equal(answer.headers['content-type'], 'application/json; charset=UTF-8');
      const { error } = JSON.parse(answer.body);
      assert.equal(error.code, 100);
      assert.match(error.message, /slower than 240 bytes a second/);
      assert.equal(typeof error.fbtrace_id, 'string');
    }
    assert.equal(uploaded.status, 200, uploaded.body);
    assert.match(JSON.parse(uploaded.body).id, /^\d+$/);
    assert.equal(posted.status, 200, posted.body);
    assert.match(JSON.parse(posted.body).id, /^\d+_\d+$/);
  });
});
