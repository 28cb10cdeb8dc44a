import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import { uploadLimit, uploadTooLarge, type UploadLimits } from './uploads.js';

/**
 * How long a client may take to send a request: its head as a whole, and its body between two
 * bytes. An upload at any speed a person would call working never waits that long for a byte,
 * so only stalled or deliberately slow clients are cut, and none holds a connection for ever.
 */
export interface RequestTimeouts {
  /** Milliseconds for the request line and headers, from the connection's first byte. */
  headerMs: number;
  /** Milliseconds without a byte while a request is under way. */
  bodyIdleMs: number;
}

export const DEFAULT_TIMEOUTS: RequestTimeouts = { headerMs: 10_000, bodyIdleMs: 30_000 };


/** The Fastify options that make Node enforce the timeouts, and leave a missing Host to Loom. */
export function serverOptions(timeouts: RequestTimeouts, maxHeaderSize: number) {
  return {
    // The socket's inactivity timeout: Loom answers it (see answerIdleSockets).
    connectionTimeout: timeouts.bodyIdleMs,
    http: {
      maxHeaderSize,
      headersTimeout: timeouts.headerMs,
      // Node checks the header deadline on this period; its default (30 s) would triple a 10 s limit.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headerMs / 4))),
      requireHostHeader: false,
    },
  };
}

export function timeoutError(timeouts: RequestTimeouts): GraphError {
  return new GraphError(100, `(#100) The request body stalled for more than ${timeouts.bodyIdleMs / 1000} seconds`, { status: 408 });
}

/**
 * When a socket sits idle past the body timeout, a request still waiting for its body gets a
 * 408 in the Graph envelope (through `answer`), then the connection closes; a socket with no
 * request to answer just closes, and one whose request is being worked on stays open.
 */
export function answerIdleSockets(
  app: FastifyInstance,
  answer: (request: FastifyRequest, reply: FastifyReply) => void,
): void {
  const waiting = new WeakMap<Socket, { request: FastifyRequest; reply: FastifyReply }>();
  app.addHook('onRequest', async (request, reply) => {
    waiting.set(request.raw.socket, { request, reply });
  });
  // Callback style: no promise per request once the answer is out.
  app.addHook('onResponse', (request, _reply, done) => {
    if (waiting.get(request.raw.socket)?.request === request) waiting.delete(request.raw.socket);
    done();
  });
  app.server.on('timeout', (socket: Socket) => {
    const pending = waiting.get(socket);
    // A request read in full is being worked on: its own cost budget bounds it, not this timeout.
    if (pending && pending.request.raw.complete && !pending.reply.sent) return;
    waiting.delete(socket);
    if (!pending || pending.reply.sent || pending.reply.raw.headersSent) return void socket.destroy();
    // The answer closes the connection once sent (closeAfterAnswer); a client that reads
    // nothing cannot hold the socket by not taking it either.
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
    answer(pending.request, pending.reply);
  });
}

/**
 * Refuses a multipart body whose declared length already passes the limit, before a byte of it
 * is read: its files (at most MAX_FILES images, or one video) and a margin for the other fields.
 * Bodies sent without a length are counted as they are read (readMultipart). Other
 * bodies have Fastify's own body limit, which checks the declared length the same way.
 */
export function refuseOversizedUploads(app: FastifyInstance, limits: UploadLimits): void {
  const maxBytes = uploadLimit(limits);
  app.addHook('onRequest', async (request) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) throw uploadTooLarge(maxBytes);
  });
}

/** How long, and how much more, an early answer's connection keeps reading (and dropping) before it closes. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;
const LINGER_CHECK_MS = 10;

/**
 * Closes the connection of a request answered before its body was read (too large, stalled,
 * unreadable), without reading the rest. Closing at once would lose the answer: a socket closed
 * with unread bytes is reset, and the reset discards what the client had not read yet. So it
 * drops what still arrives for a moment (curl and browsers stop sending once an answer comes),
 * then closes, whatever the client does.
 */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.raw.once('finish', () => {
    const socket = request.raw.socket;
    // A request made in-process (Fastify's inject) has no connection to close.
    if (typeof socket.destroy !== 'function') return;
    const readBefore = socket.bytesRead;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    // Node drops the unread body once the answer is sent, without events: the socket's count shows it.
    const watch = setInterval(() => {
      if (socket.bytesRead - readBefore > LINGER_BYTES) socket.destroy();
    }, LINGER_CHECK_MS).unref();
    socket.once('close', () => {
      clearTimeout(timer);
      clearInterval(watch);
    });
  });
}
