import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The local port of the connection the answer came on: the same port, the same connection. */
  port: number;
  /** Errors of the request after its answer came (a reset while the client still sent its body). */
  lateErrors: string[];
}

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** The body, in pieces written one after another, with a pause after each but the last. */
  pieces?: (string | Buffer)[];
  pauseMs?: number;
}

/**
 * One request through a real Node client agent, as SDKs send them (with the body's length);
 * rejects on a connection error before the answer.
 */
export function send(url: string, agent: Agent, sent: Sent): Promise<Answer> {
  const pieces = sent.pieces ?? [];
  const length = pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0);
  const chunked = sent.headers?.['transfer-encoding'] !== undefined;
  const headers = { ...(pieces.length > 0 && !chunked ? { 'content-length': length } : {}), ...sent.headers };
  return new Promise((resolve, reject) => {
    const lateErrors: string[] = [];
    let answered = false;
    const request = httpRequest(`${url}${sent.path}`, { method: sent.method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        answered = true;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), port: request.socket?.localPort ?? 0, lateErrors });
      });
    });
    request.on('error', (error: Error & { code?: string }) => (answered ? lateErrors.push(error.code ?? error.message) : reject(error)));
    void (async () => {
      for (const [index, piece] of pieces.entries()) {
        if (index === pieces.length - 1) break;
        request.write(piece);
        await sleep(sent.pauseMs ?? 0);
      }
      request.end(pieces.at(-1));
    })();
  });
}
