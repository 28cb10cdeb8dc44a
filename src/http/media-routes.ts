import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MediaStore } from '../media/media-store.js';
import { placeholderSvg, silhouetteSvg } from '../media/placeholders.js';
import type { Store } from '../store/store.js';

/** Image bytes never change once stored, so clients and proxies may keep them for good. */
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * Images: uploaded photos by storage key, drawn placeholders for photos without bytes, and the
 * silhouette. Served without a token, as a CDN serves them, to `<img>` tags and redirects alike.
 */
export async function mediaRoutes(app: FastifyInstance, { store, media }: { store: Store; media: MediaStore }): Promise<void> {
  app.get<{ Params: { key: string } }>('/media/photos/:key', async (request, reply) => {
    const bytes = await media.read(request.params.key);
    if (!bytes) return notFound(reply);
    return image(reply, contentTypeOf(bytes), bytes);
  });

  app.get<{ Params: { file: string } }>('/media/placeholders/:file', async (request, reply) => {
    const match = /^(\d{1,15})\.svg$/.exec(request.params.file);
    const photo = match ? (await store.getObjects([Number(match[1])])).get(Number(match[1])) : undefined;
    if (!photo || photo.type !== 'photo') return notFound(reply);
    const { width, height } = photo.data;
    return image(reply, 'image/svg+xml', placeholderSvg(photo.id, Number(width) || 720, Number(height) || 540));
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
