import type { FastifyInstance } from 'fastify';
import { answerTokenRequest, formEncodedToken } from '../auth/token-endpoint.js';
import { rules } from '../schema/versions.js';
import { announceVersion, answeringVersion, pathVersion } from './api-version.js';
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
        const { params, versionText, components } = toGraphRequest(request);
        const fromPath = pathVersion(versionText, components);
        if (fromPath) announceVersion(reply, fromPath);
        const { app, token } = await answerTokenRequest(settings.store, params, { now: settings.clock.now(), tokenLifetime: settings.tokenLifetime });
        const version = answeringVersion(fromPath, app, settings.defaultVersion);
        announceVersion(reply, version);
        if (rules.has('token-endpoint-json', version)) return sendJson(request, reply, 200, token);
        return reply.code(200).type('text/plain; charset=UTF-8').send(formEncodedToken(token));
      },
    });
  }
}
