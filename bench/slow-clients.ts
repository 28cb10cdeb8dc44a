/**
 * Slow-client probe: 40 connections each declare a body of 100,000 bytes and then send one byte
 * of it a second, while one client uploads a 20 MiB video at 1 MiB a second. Loom, with its
 * default limits, must close every trickle itself, answering 408, within 45 s, and take the
 * upload whole. Prints what each side saw; exits with 1 when either falls short.
 *
 *   npm run bench:slow-clients
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { startScratchLoom } from './scratch-loom.js';

const TRICKLES = 40;
const DECLARED_BYTES = 100_000;
const TRICKLE_BOUND_MS = 45_000;
const MiB = 1024 * 1024;
const UPLOAD_BYTES = 20 * MiB;
const UPLOAD_RATE = MiB;
const PIECE_BYTES = 64 * 1024;

interface TrickleOutcome {
  /** Whether the server closed the connection within the bound. */
  closedByServer: boolean;
  ms: number;
  bytesSent: number;
  status: number;
  answer: string;
}

/** One connection that declares a large body and sends a byte of it a second, until the server closes it or the bound passes. */
function trickle(base: string, token: string): Promise<TrickleOutcome> {
  const { hostname, port, host } = new URL(base);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let bytesSent = 0;
    let closedByServer = true;
    const drip = setInterval(() => {
      if (!socket.writable) return;
      socket.write('m');
      bytesSent += 1;
    }, 1000);
    const bound = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, TRICKLE_BOUND_MS);
    socket.on('connect', () =>
      socket.write(
        `POST /v2.4/me/feed?access_token=${token} HTTP/1.1\r\nHost: ${host}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(bound);
      const text = Buffer.concat(received).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ closedByServer, ms: performance.now() - started, bytesSent, status, answer: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** An MP4 file of `bytes` bytes: an `ftyp` box and one `mdat` holding the rest. */
function mp4Of(bytes: number): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.write('isommp41', 16, 'latin1');
  const mdat = Buffer.alloc(bytes - ftyp.length, 0x4c);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat]);
}

/** Uploads a video of UPLOAD_BYTES as multipart, in pieces paced to UPLOAD_RATE. */
function paceUpload(base: string, token: string): Promise<{ status: number; ms: number; answer: string }> {
  const head = Buffer.from(
    `--paced\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${token}\r\n` +
      `--paced\r\nContent-Disposition: form-data; name="title"\r\n\r\nA slow uplink\r\n` +
      `--paced\r\nContent-Disposition: form-data; name="source"; filename="slow.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const body = Buffer.concat([head, mp4Of(UPLOAD_BYTES), Buffer.from('\r\n--paced--\r\n')]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = httpRequest(`${base}/v2.4/me/videos`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=paced', 'content-length': body.length },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, answer: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    // Each piece leaves on a fixed schedule, so the rate holds whatever the timers' drift.
    let sent = 0;
    const next = () => {
      if (sent >= body.length) return void request.end();
      request.write(body.subarray(sent, sent + PIECE_BYTES));
      sent += PIECE_BYTES;
      const due = started + (sent / UPLOAD_RATE) * 1000;
      setTimeout(next, Math.max(0, due - performance.now()));
    };
    next();
  });
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<void> {
  const loom = await startScratchLoom('slow-clients');
  try {
    console.log(`Loom at ${loom.base}, default limits (a body must average 240 bytes a second once 5 s have passed)`);
    console.log(`${TRICKLES} connections declare Content-Length: ${DECLARED_BYTES} and send one byte a second; one client uploads a ${UPLOAD_BYTES / MiB} MiB video at ${UPLOAD_RATE / MiB} MiB a second.`);
    const [upload, ...trickles] = await Promise.all([paceUpload(loom.base, loom.token), ...Array.from({ length: TRICKLES }, () => trickle(loom.base, loom.token))]);

    const cut = trickles.filter((outcome) => outcome.closedByServer && outcome.status === 408);
    const times = trickles.map((outcome) => outcome.ms).sort((a, b) => a - b);
    const sent = trickles.map((outcome) => outcome.bytesSent).sort((a, b) => a - b);
    const statuses = new Map<string, number>();
    for (const outcome of trickles) {
      const key = `${outcome.closedByServer ? 'closed by the server' : `still open after ${seconds(TRICKLE_BOUND_MS)}`}, status ${outcome.status || 'none'}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    console.log(`Trickles: ${[...statuses].map(([key, count]) => `${count} ${key}`).join('; ')}`);
    console.log(`  closed after ${seconds(times[0]!)} to ${seconds(times.at(-1)!)}, having sent ${sent[0]} to ${sent.at(-1)} body bytes`);
    console.log(`  answer: ${trickles[0]!.answer.slice(0, 200)}`);
    console.log(`Upload: status ${upload.status} after ${seconds(upload.ms)}: ${upload.answer.slice(0, 200)}`);
    const passed = cut.length === TRICKLES && upload.status === 200;
    console.log(passed ? 'PASS: every trickle was closed with 408 and the upload completed' : 'FAIL');
    process.exitCode = passed ? 0 : 1;
  } finally {
    await loom.stop();
  }
}

await main();
