import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/build-app.js';
import type { Store } from '../../src/store/store.js';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  /** Where this server keeps uploaded images. */
  mediaDir: string;
  get(path: string, params?: Record<string, string>): Promise<Reply>;
  fetch(url: string, init?: RequestInit): Promise<Reply>;
  /** Sends the parameters as a form body, as SDKs send POSTs (and DELETEs when asked to). */
  form(path: string, fields: Record<string, string>, method?: 'POST' | 'DELETE'): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A real Loom app listening on a free loopback port; requests go over real HTTP. */
export async function startServer(store: Store, options: Partial<AppOptions> = {}): Promise<TestServer> {
  const mediaDir = options.mediaDir ?? mkdtempSync(join(tmpdir(), 'loom-media-'));
  const app = await buildApp({ store, ...options, mediaDir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const fetchReply = async (target: string, init?: RequestInit): Promise<Reply> => {
    const response = await fetch(target, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, text, body };
  };
  return {
    app,
    url,
    mediaDir,
    fetch: fetchReply,
    get: (path, params = {}) => {
      const query = new URLSearchParams(params).toString();
      return fetchReply(`${url}${path}${query ? `?${query}` : ''}`);
    },
    form: (path, fields, method = 'POST') =>
      fetchReply(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    close: async () => {
      await app.close();
      // A folder this helper made goes with its server; one a test named is the test's to remove.
      if (options.mediaDir === undefined) rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}
