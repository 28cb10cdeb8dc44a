import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface ConnectAnswer {
  status: number;
  body: string;
  /** The tunnel, open when the proxy said 200. */
  socket: Socket;
}

/** Sends `CONNECT target` to the proxy at `proxyUrl`, as any HTTPS_PROXY-aware client does. */
export function connectThrough(proxyUrl: string, target: string): Promise<ConnectAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(proxyUrl, { method: 'CONNECT', path: target, headers: { host: target } });
    outgoing.on('connect', (response, socket, head) => {
      let body = head.toString();
      if (response.statusCode === 200) return resolve({ status: 200, body, socket });
      socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
      socket.on('end', () => resolve({ status: response.statusCode ?? 0, body, socket }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * A real HTTPS request to `url` (a Graph host) through the proxy at `proxyUrl`, trusting only
 * `ca`: the certificate must be valid for the host, or the request fails.
 */
export async function httpsThroughProxy(
  proxyUrl: string,
  ca: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpsAnswer> {
  const target = new URL(url);
  const tunnel = await connectThrough(proxyUrl, `${target.hostname}:${target.port || 443}`);
  if (tunnel.status !== 200) throw new Error(`CONNECT refused with ${tunnel.status}: ${tunnel.body}`);
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        createConnection: () => tlsConnect({ socket: tunnel.socket, servername: target.hostname, ca }),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
