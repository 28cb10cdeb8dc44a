import type { FastifyInstance } from 'fastify';
import { dispatch } from '../dispatch/dispatch.js';
import { toGraphRequest } from './to-graph-request.js';
import { writeGraphResponse } from './reply.js';
import type { AppSettings } from './settings.js';
import { readMultipart } from './uploads.js';

/** Every Graph path (`/`, `/<id>`, `/<id>/<edge>`, with or without a version prefix) goes to `dispatch`. */
export async function graphRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/*',
    handler: async (request, reply) => {
      const multipart = request.isMultipart() ? await readMultipart(request, settings.media) : undefined;
      const graph = toGraphRequest(request, settings.publicUrl, multipart ? multipart.fields : request.body, multipart?.files);
      return writeGraphResponse(reply, await dispatch(settings, graph));
    },
  });
}
