import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { GraphError } from '../errors.js';
import type { ApiVersion } from '../schema/versions.js';
import { errorBody } from '../dispatch/error-envelope.js';

/** Largest request head (request line and headers) Loom reads: long `fields` expressions fit. */
export const MAX_HEADER_BYTES = 512 * 1024;

/**
 * Requests Node refuses before Fastify sees them (an oversized head, a garbled request line)
 * still get the Graph error envelope, so no client ever has to parse a different shape. Nothing of
 * the request was read, so the server's default version answers.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket, version: ApiVersion): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const graphError = clientGraphError(error);
  const body = JSON.stringify(errorBody(graphError, randomBytes(8).toString('base64url').slice(0, 11)));
  socket.end(
    `HTTP/1.1 ${graphError.status} ${STATUS_TEXT[graphError.status] ?? 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `facebook-api-version: ${version}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function clientGraphError(error: Error & { code?: string }): GraphError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new GraphError(100, `(#100) The request line and headers are larger than the limit of ${MAX_HEADER_BYTES} bytes`, { status: 431 });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GraphError(100, '(#100) The request line and headers took too long to arrive', { status: 408 });
    default:
      return GraphError.invalidParameter('The request could not be read');
  }
}
