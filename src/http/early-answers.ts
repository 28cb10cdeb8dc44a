import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The largest body Loom still reads to its end (and drops) after answering early, to keep the connection. */
const DRAIN_BYTES = 8 * 1024 * 1024;
/** How long, and how much more, a connection that closes after an early answer keeps reading (and dropping). */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;
const LINGER_CHECK_MS = 10;

/**
 * Settles the connection of an answer sent before its request's body was read in full: refused
 * (too large, unreadable, a host not served), cut for coming too slowly, or a GET whose body no
 * route reads. Clients send their next request on the same connection, so it never closes
 * under them: either the rest of a body of modest, known length is read and dropped and the
 * connection serves on, or the answer says `Connection: close` (and the client opens another).
 * Called as the answer is about to be written.
 */
export function settleEarlyAnswer(request: FastifyRequest, reply: FastifyReply): void {
  if (drainable(request, reply)) {
    // Fastify closes after a body its parser refused; read to its end, the connection is as good as new.
    if (reply.hasHeader('connection')) reply.header('connection', 'keep-alive');
    reply.raw.once('finish', () => dropRest(request.raw));
    return;
  }
  reply.header('connection', 'close');
  closeAfterLinger(request, reply);
}

function drainable(request: FastifyRequest, reply: FastifyReply): boolean {
  // A body cut for being too slow is not waited for again; a client that closes after this request closes anyway.
  if (reply.statusCode === 408 || !reply.raw.shouldKeepAlive) return false;
  // A body sent without a length may never end.
  if (request.headers['transfer-encoding'] !== undefined) return false;
  return Number(request.headers['content-length'] ?? 0) <= DRAIN_BYTES;
}

/** Lets the rest of the body flow with no reader, so Node drops it, whatever stopped reading it (a parser that gave up). */
function dropRest(body: IncomingMessage): void {
  if (body.complete) return;
  body.unpipe();
  body.resume();
}

/**
 * Closes the connection once the answer is out, without reading the rest of the body. Closing
 * at once would lose the answer: a socket closed with unread bytes is reset, and the reset
 * discards what the client had not read yet. So the answer goes out with the end of the stream
 * after it, what still arrives is dropped for a moment (curl and browsers stop sending once an
 * answer comes), and then the connection closes, whatever the client does.
 */
function closeAfterLinger(request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket;
  // Node destroys a closing connection's socket as soon as the answer is out: only end it.
  socket.destroySoon = () => socket.end();
  const readBefore = socket.bytesRead;
  const stop = () => {
    clearTimeout(deadline);
    clearInterval(watch);
  };
  // Nothing unread is left once the body has come in full or the client has closed its side.
  const close = () => {
    stop();
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const deadline = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  // Node drops the unread body without events once the answer is sent: the socket's count shows it.
  const watch = setInterval(() => {
    if (request.raw.complete || socket.bytesRead - readBefore > LINGER_BYTES) close();
  }, LINGER_CHECK_MS).unref();
  socket.once('end', close);
  socket.once('close', stop);
  reply.raw.once('finish', () => dropRest(request.raw));
}
