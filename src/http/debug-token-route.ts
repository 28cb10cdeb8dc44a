import type { FastifyInstance } from 'fastify';
import { debugToken } from '../auth/debug-token.js';
import { resolveViewer } from '../auth/viewer.js';
import { GraphError } from '../errors.js';
import { announceVersion, answeringVersion, pathVersion } from './api-version.js';
import { sendJson } from './reply.js';
import type { AppSettings } from './settings.js';
import { toGraphRequest, versionedPaths } from './graph-request.js';

/** `GET /debug_token?input_token=…` with an app token, or a user token, of the same app. */
export async function debugTokenRoute(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  for (const url of versionedPaths('/debug_token')) {
    app.get(url, async (request, reply) => {
      const graph = toGraphRequest(request);
      const fromPath = pathVersion(graph.versionText, graph.components);
      if (fromPath) announceVersion(reply, fromPath);
      if (!graph.accessToken) throw GraphError.noToken();
      const now = settings.clock.now();
      const caller = await resolveViewer(settings.store, graph.accessToken, now, graph.params.appsecret_proof, graph.authVersion);
      announceVersion(reply, answeringVersion(fromPath, caller.app, settings.defaultVersion));
      return sendJson(request, reply, 200, await debugToken(settings.store, caller, graph.params.input_token, now));
    });
  }
}
