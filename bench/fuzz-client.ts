/**
 * Sends the fuzz's requests (fuzz-requests.ts) to a server through one keep-alive agent, as SDKs
 * do, several at a time, and counts what came back: statuses, error answers outside the Graph
 * envelope, and connection failures (a reset, or a socket hung up under a request).
 */
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { Random } from '../src/seed/random.js';
import { fuzzRequest, type FuzzRequest, type FuzzTarget } from './fuzz-requests.js';

export interface FuzzOptions {
  requests: number;
  /** Requests under way at once, each on a connection of its own (reused from one to the next). */
  concurrency: number;
  seed: string;
}

export interface FuzzCounts {
  requests: number;
  /** Answers by status class (`2xx`…). */
  statuses: Record<string, number>;
  /** Connections the client opened in all. */
  connections: number;
  /** Answers that said `Connection: close`. */
  closing: number;
  /** Connection resets and sockets hung up under a request (ECONNRESET, EPIPE), before or after its answer. */
  resets: number;
  /** Other client errors, by code. */
  errors: Record<string, number>;
  /** Error answers of Graph paths whose body is not the Graph error envelope. */
  outsideEnvelope: number;
  /** A few failed requests, to reproduce. */
  examples: string[];
}

/** How long one request may take before it counts as hung. */
const REQUEST_TIMEOUT_MS = 60_000;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

export async function runFuzz(base: string, target: FuzzTarget, options: FuzzOptions): Promise<FuzzCounts> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const counts: FuzzCounts = { requests: 0, statuses: {}, connections: 0, closing: 0, resets: 0, errors: {}, outsideEnvelope: 0, examples: [] };
  const seen = new WeakSet<Socket>();
  const random = new Random(options.seed);
  let next = 0;
  const worker = async () => {
    while (next < options.requests) {
      const number = next++;
      const request = fuzzRequest(random.fork(String(number)), target);
      await sendOne(base, agent, request, number, counts, seen);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return counts;
}

function sendOne(base: string, agent: Agent, fuzz: FuzzRequest, number: number, counts: FuzzCounts, seen: WeakSet<Socket>): Promise<void> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...fuzz.headers };
    if (fuzz.body !== undefined) {
      if (fuzz.chunked) headers['transfer-encoding'] = 'chunked';
      else headers['content-length'] = fuzz.body.length;
    }
    const describe = () => `#${number} ${fuzz.method} ${fuzz.path.slice(0, 160)} ${JSON.stringify(fuzz.headers)} body ${fuzz.body?.length ?? 'none'}${fuzz.chunked ? ' chunked' : ''}`;
    const fail = (error: Error & { code?: string }, when: string) => {
      const code = error.code ?? error.message;
      if (RESET_CODES.has(code)) counts.resets++;
      else counts.errors[code] = (counts.errors[code] ?? 0) + 1;
      if (counts.examples.length < 10) counts.examples.push(`${code} ${when}: ${describe()}`);
    };
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      counts.requests++;
      resolve();
    };
    const request = httpRequest(`${base}${fuzz.path}`, { method: fuzz.method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => fail(error, 'while reading the answer'));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const key = `${Math.floor(status / 100)}xx`;
        counts.statuses[key] = (counts.statuses[key] ?? 0) + 1;
        if (response.headers.connection === 'close') counts.closing++;
        if (fuzz.graph && status >= 400 && fuzz.method !== 'HEAD' && !isEnvelope(Buffer.concat(chunks).toString('utf8'))) {
          counts.outsideEnvelope++;
          if (counts.examples.length < 10) counts.examples.push(`${status} outside the envelope: ${describe()}`);
        }
        settle();
      });
    });
    request.on('socket', (socket: Socket) => {
      if (seen.has(socket)) return;
      seen.add(socket);
      counts.connections++;
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    request.on('error', (error: Error & { code?: string }) => {
      fail(error, settled ? 'after the answer' : 'before the answer');
      settle();
    });
    if (fuzz.body === undefined) return void request.end();
    if (fuzz.chunked && fuzz.body.length > 1) {
      // In two chunks, as a stream is sent.
      const half = Math.floor(fuzz.body.length / 2);
      request.write(fuzz.body.subarray(0, half));
      request.end(fuzz.body.subarray(half));
    } else {
      request.end(fuzz.body);
    }
  });
}

function isEnvelope(text: string): boolean {
  try {
    const { error } = JSON.parse(text) as { error?: { message?: unknown; code?: unknown; fbtrace_id?: unknown } };
    return typeof error?.message === 'string' && typeof error.code === 'number' && typeof error.fbtrace_id === 'string';
  } catch {
    return false;
  }
}
