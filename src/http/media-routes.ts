import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MediaStore } from '../media/media-store.js';
import { readCommitted } from '../media/media-sweep.js';
import { placeholderMp4, placeholderSvg, silhouetteSvg } from '../media/placeholders.js';
import { videoContentType } from '../media/video-check.js';
import type { Store } from '../store/store.js';

/** Image bytes never change once stored, so clients and proxies may keep them for good. */
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * Images and videos: uploaded photos and videos by storage key (published here if a crash left a committed one
 * staged), drawn placeholders for photos and videos without bytes, and the silhouette. Served without a token, as a CDN serves them, to `<img>` tags and redirects alike.
 */
export async function mediaRoutes(app: FastifyInstance, { media, store }: { media: MediaStore; store: Store }): Promise<void> {
  app.get<{ Params: { key: string } }>('/media/photos/:key', async (request, reply) => {
    const bytes = await readCommitted(store, media, request.params.key);
    if (!bytes) return notFound(reply);
    return image(reply, contentTypeOf(bytes), bytes);
  });

  app.get<{ Params: { key: string } }>('/media/videos/:key', async (request, reply) => {
    const bytes = await readCommitted(store, media, request.params.key);
    if (!bytes) return notFound(reply);
    return image(reply, videoContentType(bytes), bytes);
  });

  // The address holds all the drawing needs (`<photo id>-<width>x<height>.svg`), so nothing is read.
  // A video's: `<video id>-<milliseconds>.mp4`.
  app.get<{ Params: { file: string } }>('/media/placeholders/:file', async (request, reply) => {
    const clip = /^\d{1,15}-(\d{1,9})\.mp4$/.exec(request.params.file);
    if (clip) return image(reply, 'video/mp4', placeholderMp4(Number(clip[1])));
    const match = /^(\d{1,15})-(\d{1,5})x(\d{1,5})\.svg$/.exec(request.params.file);
    if (!match) return notFound(reply);
    return image(reply, 'image/svg+xml', placeholderSvg(Number(match[1]), Number(match[2]), Number(match[3])));
  });

  app.get('/media/silhouette.svg', async (_request, reply) => image(reply, 'image/svg+xml', silhouetteSvg()));
}

function image(reply: FastifyReply, contentType: string, body: Buffer | string): FastifyReply {
  return reply.header('cache-control', FOREVER).type(contentType).send(body);
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
}

/** Uploads were checked to be one of these four formats; their first bytes tell which. */
function contentTypeOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'image/png';
  if (bytes[0] === 0x47 && bytes[1] === 0x49) return 'image/gif';
  return 'image/webp';
}
