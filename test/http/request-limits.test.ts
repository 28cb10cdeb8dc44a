import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '../../src/clock/clock.js';
import type { Fixture } from '../helpers/fixture.js';
import { rawExchange, rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MiB = 1024 * 1024;

/** A Graph error answer: the envelope, its code, the version header and the JSON type with its charset. */
function assertEnvelope(answer: RawAnswer, status: number, secret?: string): void {
  assert.equal(answer.status, status, `${answer.status} ${answer.body}`);
  assert.equal(answer.headers['content-type'], 'application/json; charset=UTF-8');
  assert.equal(answer.headers['facebook-api-version'], 'v2.4');
  const body = JSON.parse(answer.body);
  assert.equal(body.error.code, 100);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.fbtrace_id, 'string');
  if (secret !== undefined) assert.equal(answer.body.includes(secret), false, 'the token is not echoed');
}

describe('slow, stalled, oversized and malformed requests', () => {
  // Short timeouts keep the test quick; the defaults are 10 s and 30 s.
  const served = useFixtureServer({ timeouts: { headerMs: 400, bodyIdleMs: 800 } });
  let fixture: Fixture;
  let server: TestServer;
  let host: string;

  before(() => {
    ({ fixture, server } = served);
    host = new URL(server.url).host;
  });

  it('answers a head that never ends with 408 in the envelope and closes the connection', async () => {
    const answer = await rawExchange(server.url, (socket) => void socket.write(`GET /v2.4/me HTTP/1.1\r\nHost: ${host}\r\n`), 8000);
    assert.ok(answer.closed, 'the server closed the connection');
    assertEnvelope(answer, 408);
  });

  it('answers a body that stops arriving with 408 in the envelope and closes the connection', async () => {
    const answer = await rawExchange(
      server.url,
      (socket) => void socket.write(`POST /v2.4/me/feed HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nm`),
      8000,
    );
    assert.ok(answer.closed, 'the server closed the connection');
    assertEnvelope(answer, 408);
  });

  it('never cuts a body that keeps arriving, however long it takes in all', async () => {
    const body = `access_token=${fixture.aliceToken}&message=${'slow-but-steady-'.repeat(16)}`;
    const pieces = body.match(/.{1,16}/g)!;
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(`POST /v2.4/me/feed HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
      // Well over both timeouts in all, but never a pause as long as the idle limit.
      for (const piece of pieces) {
        socket.write(piece);
        await sleep(100);
      }
    }, 20_000);
    assert.equal(answer.status, 200, answer.body);
    assert.match(JSON.parse(answer.body).id, /^\d+_\d+$/);
  });

  it('keeps a connection whose request arrived while the server was held up past the idle timeout', async () => {
    const quick = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), timeouts: { headerMs: 1000, bodyIdleMs: 100 } });
    // The idle timer starts when the server accepts the connection. The request goes out as soon
    // as that has happened: a pause of the client's own could outlast the timer on a busy machine.
    const accepted = once(quick.app.server, 'connection');
    try {
      const answer = await rawExchange(quick.url, async (socket) => {
        await accepted;
        // This process is the server's too. Sent after this turn's reads, and the event loop then
        // held up well past the 100 ms timer: the next turn's timers run before its reads.
        setImmediate(() => {
          socket.write(`GET /v2.4/me?access_token=${fixture.aliceToken} HTTP/1.1\r\nHost: ${new URL(quick.url).host}\r\nConnection: close\r\n\r\n`);
          const until = performance.now() + 300;
          while (performance.now() < until);
        });
      }, 5000);
      assert.equal(answer.status, 200, answer.body);
      assert.match(JSON.parse(answer.body).id, /^\d+$/);
    } finally {
      await quick.close();
    }
  });

  it('never times out a request whose work takes longer than the body timeout', async () => {
    const quick = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), timeouts: { headerMs: 1000, bodyIdleMs: 50 } });
    try {
      // Far more than 50 ms of work: 300 lists of Alice's friends.
      const fields = Array.from({ length: 300 }, (_, i) => `friends.as(f${i}).limit(25){name,birthday}`).join(',');
      const reply = await quick.get('/v2.4/me', { access_token: fixture.aliceToken, fields });
      assert.equal(reply.status, 200, reply.text.slice(0, 200));
      assert.equal(Object.keys(reply.body).length, 301);
    } finally {
      await quick.close();
    }
  });

  it('refuses a declared 1 GiB upload with 413 before reading 11 MiB of it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    // What Loom read is counted on its side of the connection: what the client managed to write
    // also holds whatever the two kernels buffered, which grows with the machine's load.
    let serverRead: number | undefined;
    const count = (socket: Socket) => socket.once('close', () => (serverRead = socket.bytesRead));
    server.app.server.on('connection', count);
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(
        `POST /v2.4/me/photos?access_token=${fixture.aliceToken} HTTP/1.1\r\nHost: ${host}\r\n` +
          `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${1024 * MiB}\r\n\r\n--xyz\r\n` +
          `Content-Disposition: form-data; name="source"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      // As fast as the server takes it, until it closes the connection or 64 MiB are sent.
      for (let sent = 0; sent < 64 * MiB && !socket.destroyed; sent += chunk.length) {
        if (!socket.write(chunk)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
      }
    }, 30_000);
    assertEnvelope(answer, 413, fixture.aliceToken);
    assert.ok(answer.closed, 'the server closed the connection');
    for (let waited = 0; serverRead === undefined && waited < 5000; waited += 50) await sleep(50);
    server.app.server.off('connection', count);
    assert.ok(serverRead !== undefined, 'the server closed its side');
    assert.ok(serverRead < 11 * MiB, `${serverRead} bytes were read`);
  });

  it('refuses an upload sent without a length once what arrived passes the limit', async () => {
    // Images and videos of at most 100 kB: the body may hold ten images and 1 MiB of other fields.
    const small = await startServer(fixture.store, { clock: Clock.frozenAt(fixture.now), maxImageBytes: 100_000, maxVideoBytes: 100_000 });
    const chunked = (text: string | Buffer) => Buffer.concat([Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n`), Buffer.from(text), Buffer.from('\r\n')]);
    const answer = await rawExchange(small.url, async (socket) => {
      // Like curl, the client stops sending once an answer starts to arrive.
      let answered = false;
      socket.once('data', () => (answered = true));
      const send = async (bytes: Buffer) => {
        if (answered) return;
        if (!socket.destroyed && !socket.write(bytes)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
      };
      socket.write(
        `POST /v2.4/me/photos?access_token=${fixture.aliceToken} HTTP/1.1\r\nHost: ${host}\r\n` +
          `Content-Type: multipart/form-data; boundary=xyz\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      // Fields of 200 KiB, each within the size of a field and fewer than the count of fields,
      // then an image: each part alone is within its own limit, together they pass the body's.
      for (let n = 0; n < 20; n++) await send(chunked(`--xyz\r\nContent-Disposition: form-data; name="f${n}"\r\n\r\n${'v'.repeat(200 * 1024)}\r\n`));
      await send(chunked('--xyz\r\nContent-Disposition: form-data; name="source"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'));
      const piece = chunked(Buffer.alloc(64 * 1024, 0x61));
      for (let sent = 0; sent < 64 * MiB && !socket.destroyed && !answered; sent += piece.length) await send(piece);
    }, 30_000);
    await small.close();
    assertEnvelope(answer, 413, fixture.aliceToken);
    assert.match(JSON.parse(answer.body).error.message, /larger than the limit of 2048576 bytes/);
    assert.ok(answer.closed, 'the server closed the connection');
    // What the client could write includes what the loopback buffers took; far less than it tried.
    assert.ok(answer.written < 24 * MiB, `${answer.written} bytes were taken`);
  });

  it('answers a path that does not decode in the envelope, without echoing the token', async () => {
    const secret = 'EAAdoNotEchoThisToken123';
    const answer = await rawRequest(server.url, `GET /v2.4/%ZZ?access_token=${secret} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    assertEnvelope(answer, 400, secret);
  });

  it('answers a request without Host in the envelope', async () => {
    const answer = await rawRequest(server.url, 'GET /v2.4/me HTTP/1.1\r\nConnection: close\r\n\r\n');
    assertEnvelope(answer, 400);
    assert.match(JSON.parse(answer.body).error.message, /Host/);
  });

  it('answers unreadable JSON and form bodies in the envelope', async () => {
    const secret = 'EAAanotherSecretToken456';
    const json = await rawRequest(
      server.url,
      `POST /v2.4/me/feed?access_token=${secret} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{"a":tru`,
    );
    assertEnvelope(json, 400, secret);
    const unknownType = await rawRequest(
      server.url,
      `POST /v2.4/me/feed?access_token=${secret} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/x-weird\r\nContent-Length: 3\r\n\r\nabc`,
    );
    assertEnvelope(unknownType, 400, secret);
  });
});
