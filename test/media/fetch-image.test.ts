import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GraphError } from '../../src/errors.js';
import { fetchUpload } from '../../src/media/fetch-image.js';
import { pngBytes } from '../helpers/images.js';

describe('fetching a photo by url', () => {
  const image = pngBytes(3, 2);
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((request, response) => {
      switch (request.url) {
        case '/image.png':
          return response.writeHead(200, { 'content-type': 'image/png' }).end(image);
        case '/moved':
          return response.writeHead(302, { location: '/image.png' }).end();
        case '/loop':
          return response.writeHead(302, { location: '/loop' }).end();
        case '/drip': {
          // One byte at a time, never finishing: only a deadline for the whole download stops it.
          response.writeHead(200, { 'content-type': 'image/png' });
          const timer = setInterval(() => response.write('x'), 50);
          response.on('close', () => clearInterval(timer));
          return;
        }
        default:
          return response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const local = { maxBytes: 1_000_000, allowPrivateUrls: true, timeoutMs: 400 };

  it('downloads the bytes, following a redirect', async () => {
    assert.ok((await fetchUpload(`${base}/image.png`, local)).equals(image));
    assert.ok((await fetchUpload(`${base}/moved`, local)).equals(image));
  });

  it('gives up on endless redirects and on a download that outlasts its deadline', async () => {
    await assert.rejects(fetchUpload(`${base}/loop`, local), (error: GraphError) => error.code === 324 && /redirects too often/.test(error.message));
    // The drip never ends and each chunk comes well within the deadline, so only a deadline on
    // the whole body can end this download.
    await assert.rejects(fetchUpload(`${base}/drip`, local), (error: GraphError) => error.code === 324 && /took too long/.test(error.message));
  });

  it('stops reading at the size limit', async () => {
    await assert.rejects(fetchUpload(`${base}/image.png`, { ...local, maxBytes: 10 }), /larger than the limit of 10 bytes/);
  });
});
