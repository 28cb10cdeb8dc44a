import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request the client managed to write before the server closed the connection. */
  written: number;
  /** Whether the server closed the connection (rather than the client giving up). */
  closed: boolean;
}

/** One parsed HTTP/1.1 answer from raw bytes: status, headers (names in lower case), body. */
function parseAnswer(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end < 0 ? '' : text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body };
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line < 0) return out;
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/**
 * Opens a connection and lets `drive` write to it as slowly or as much as it likes; resolves
 * with the first answer once the server closes the connection (or, `untilAnswered`, once the
 * answer is whole), or after `waitMs` at most.
 */
export function rawExchange(
  url: string,
  drive: (socket: Socket) => void | Promise<void>,
  waitMs = 10_000,
  options: { untilAnswered?: boolean } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let written = 0;
    let closed = false;
    const originalWrite: (chunk: string | Buffer) => boolean = socket.write.bind(socket);
    socket.write = ((chunk: string | Buffer, ...rest: unknown[]) => {
      if (socket.destroyed || socket.writableEnded) return false;
      written += Buffer.byteLength(chunk);
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(Buffer.concat(chunks).toString('utf8')), written, closed });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (options.untilAnswered && isComplete(Buffer.concat(chunks))) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', () => void Promise.resolve(drive(socket)).catch(() => undefined));
  });
}

/**
 * Sends one complete request and resolves with the answer. The client does not half-close the
 * connection after its request: Node drops a request whose client did, if its answer is not ready.
 */
export function rawRequest(url: string, request: string | Buffer, waitMs = 10_000): Promise<RawAnswer> {
  return rawExchange(url, (socket) => void socket.write(request), waitMs, { untilAnswered: true });
}

/** Whether the bytes hold a whole answer: its head and as much body as it announces. */
function isComplete(bytes: Buffer): boolean {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = bytes.subarray(0, end).toString('latin1').toLowerCase();
  const body = bytes.subarray(end + 4);
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) return body.length >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/.test(head)) return body.includes('0\r\n\r\n');
  return false;
}
