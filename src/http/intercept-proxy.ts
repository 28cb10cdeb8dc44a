import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { GraphError } from '../errors.js';
import { INTERCEPTED_HOSTS, type HostCredentials } from '../intercept/intercepted-hosts.js';
import { errorBody } from '../dispatch/error-envelope.js';

/** The base of the links written in answers to intercepted requests, so clients follow them back through the proxy. */
const INTERCEPTED_BASE_URL = `https://${INTERCEPTED_HOSTS[0]}`;

const HTTPS_PORT = '443';
/** Decrypted connections that arrived through CONNECT; they answer for the intercepted hosts. */
const interceptedSockets = new WeakSet<object>();

/** Whether this request came through the proxy, decrypted by Loom itself. */
export function isIntercepted(request: FastifyRequest): boolean {
  return interceptedSockets.has(request.raw.socket);
}

/** The origin links in an answer are built from: the Graph host for an intercepted request, else the one it was addressed to. */
export function requestOrigin(request: FastifyRequest): string {
  return isIntercepted(request) ? INTERCEPTED_BASE_URL : `${request.protocol}://${request.host}`;
}

/**
 * The base of the absolute links in an answer. An intercepted request's client can only reach
 * Loom through the Graph host, so its links name that host whatever the public URL is.
 */
export function linkBaseUrl(origin: string, publicUrl: string | undefined): string {
  return origin === INTERCEPTED_BASE_URL ? origin : (publicUrl ?? origin);
}

/**
 * Makes `server` also an HTTPS proxy for the intercepted hosts only: a CONNECT to one of them
 * is answered by Loom over TLS with `credentials`, and the decrypted stream is served as any
 * other connection. Every other target is refused before any connection is opened, so the port
 * never relays traffic anywhere (an open proxy would let anyone reach the machines around Loom).
 */
export function interceptConnect(server: Server, credentials: HostCredentials): void {
  const secureContext = createSecureContext({ cert: credentials.cert, key: credentials.key });
  server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!isInterceptedTarget(request.url ?? '')) return refuse(socket, request.url ?? '');
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    const tlsSocket = new TLSSocket(socket, { isServer: true, secureContext, ALPNProtocols: ['http/1.1'] });
    tlsSocket.on('error', () => tlsSocket.destroy());
    interceptedSockets.add(tlsSocket);
    server.emit('connection', tlsSocket);
  });
}

/** `host:443` for one of the intercepted hosts; a CONNECT target is always host and port. */
function isInterceptedTarget(target: string): boolean {
  const separator = target.lastIndexOf(':');
  if (separator < 0) return false;
  const host = target.slice(0, separator).toLowerCase().replace(/\.$/, '');
  return target.slice(separator + 1) === HTTPS_PORT && (INTERCEPTED_HOSTS as readonly string[]).includes(host);
}

function refuse(socket: Socket, target: string): void {
  const message = `Loom only answers CONNECT for ${INTERCEPTED_HOSTS.map((host) => `${host}:${HTTPS_PORT}`).join(', ')}, not ${target.slice(0, 100)}`;
  const body = JSON.stringify(errorBody(new GraphError(100, message, { status: 403 }), randomBytes(8).toString('base64url').slice(0, 11)));
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json; charset=UTF-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
