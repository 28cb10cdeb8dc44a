import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  /** Which connection it came on, counted from 1 in the order they were opened. */
  connection: number;
}

/** What the receiver answers to one request. */
export interface Answer {
  status: number;
  body: string;
}

/**
 * A real HTTP receiver of webhooks for tests: it records every request and answers with what
 * `respond` says (by default, the handshake's challenge when the verify token is "secret-word",
 * and 200 to notifications).
 */
export interface Receiver {
  url: string;
  requests: Received[];
  notifications(): Received[];
  respond: (request: Received) => Answer;
  close(): Promise<void>;
}

export const VERIFY_TOKEN = 'secret-word';

export function answerHandshake(request: Received): Answer {
  const params = request.url.searchParams;
  if (params.get('hub.mode') === 'subscribe' && params.get('hub.verify_token') === VERIFY_TOKEN) {
    return { status: 200, body: params.get('hub.challenge') ?? '' };
  }
  return request.method === 'GET' ? { status: 403, body: 'wrong verify token' } : { status: 200, body: 'ok' };
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const receiver: Receiver = {
    url: '',
    requests,
    notifications: () => requests.filter((request) => request.method === 'POST'),
    respond: answerHandshake,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const connections = new WeakMap<Socket, number>();
  let opened = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: Received = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://receiver'), headers: req.headers, body, connection: connections.get(req.socket)! };
      requests.push(request);
      const answer = receiver.respond(request);
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  server.on('connection', (socket: Socket) => connections.set(socket, ++opened));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
