import type { FastifyInstance } from 'fastify';
import { answerTokenRequest } from '../auth/token-endpoint.js';
import { sendJson } from './reply.js';
import type { AppSettings } from './settings.js';
import { toGraphRequest, versionedPaths } from './graph-request.js';

/** `GET|POST /oauth/access_token`, parameters in the query string or the body. */
export async function oauthRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  for (const url of versionedPaths('/oauth/access_token')) {
    app.route({
      method: ['GET', 'POST'],
      url,
      handler: async (request, reply) => {
        const { params } = toGraphRequest(request);
        const body = await answerTokenRequest(settings.store, params, { now: settings.clock.now(), tokenLifetime: settings.tokenLifetime });
        return sendJson(request, reply, 200, body);
      },
    });
  }
}
