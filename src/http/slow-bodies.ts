import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import type { RequestTimeouts } from './connection-limits.js';

interface UnderWay {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A body on its way: how much of the connection had been read when its head was, and when. */
interface Transfer extends UnderWay {
  socket: Socket;
  startedAt: number;
  readAtStart: number;
}

function stalledBody(timeouts: RequestTimeouts): GraphError {
  return new GraphError(100, `(#100) The request body stalled for more than ${timeouts.bodyIdleMs / 1000} seconds`, { status: 408 });
}

function tooSlowBody(timeouts: RequestTimeouts): GraphError {
  return new GraphError(100, `(#100) The request body arrived slower than ${timeouts.minBodyRate} bytes a second`, { status: 408 });
}

/**
 * Cuts requests whose body comes too slowly: one that pauses past the idle timeout, and one that,
 * past its grace, has arrived at less than the minimum average rate. Either is answered 408 in
 * the Graph envelope (through `answer`), and the answer closes the connection (early-answers.ts);
 * a body still arriving after its answer went out just has its connection closed. A socket idle
 * with no request closes, and one whose request is being worked on stays open.
 */
export function cutSlowBodies(
  app: FastifyInstance,
  timeouts: RequestTimeouts,
  answer: (request: FastifyRequest, reply: FastifyReply, error: GraphError) => void,
): void {
  const waiting = new WeakMap<Socket, UnderWay>();
  const transfers = new Map<IncomingMessage, Transfer>();
  // A quarter of the grace at most between checks, so a short grace in a test is kept as well.
  const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(timeouts.bodyRateGraceMs / 4)));
  let ticker: NodeJS.Timeout | undefined;

  const cut = ({ request, reply }: UnderWay, error: GraphError) => {
    const socket = request.raw.socket;
    if (waiting.get(socket)?.request === request) waiting.delete(socket);
    transfers.delete(request.raw);
    if (reply.sent || reply.raw.headersSent) return void socket.destroy();
    answer(request, reply, error);
  };

  const checkRates = () => {
    const now = performance.now();
    for (const transfer of transfers.values()) {
      if (transfer.request.raw.complete || transfer.socket.destroyed) {
        transfers.delete(transfer.request.raw);
        continue;
      }
      const elapsedMs = now - transfer.startedAt;
      if (elapsedMs < timeouts.bodyRateGraceMs) continue;
      if ((transfer.socket.bytesRead - transfer.readAtStart) * 1000 >= timeouts.minBodyRate * elapsedMs) continue;
      cut(transfer, tooSlowBody(timeouts));
    }
    if (transfers.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  // Callback style: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    waiting.set(socket, { request, reply });
    if (timeouts.minBodyRate > 0 && hasBody(request)) {
      transfers.set(request.raw, { request, reply, socket, startedAt: performance.now(), readAtStart: socket.bytesRead });
      ticker ??= setInterval(checkRates, checkEveryMs).unref();
    }
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (waiting.get(request.raw.socket)?.request === request) waiting.delete(request.raw.socket);
    // A body still arriving after its answer is held to the same rate.
    if (request.raw.complete) transfers.delete(request.raw);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(ticker);
    done();
  });
  app.server.on('timeout', (socket: Socket) => {
    // After the event loop was held up (a long piece of work, a busy machine), the timer fires
    // before that turn reads what arrived meanwhile: the socket is judged once the turn has read it.
    const readBefore = socket.bytesRead;
    setImmediate(() => {
      if (socket.destroyed || socket.bytesRead > readBefore) return;
      const pending = waiting.get(socket);
      // A request read in full is being worked on: its own cost budget bounds it, not this timeout.
      if (pending && pending.request.raw.complete && !pending.reply.sent) return;
      if (!pending) return void socket.destroy();
      cut(pending, stalledBody(timeouts));
    });
  });
}

/** Whether the request's head announces a body: only those can come too slowly. */
function hasBody(request: FastifyRequest): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;
}
