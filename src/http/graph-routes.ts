import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveViewer, type Viewer } from '../auth/viewer.js';
import { createReadContext, type ReadContext } from '../engine/context.js';
import { deleteFromEdge, deleteNode, postToEdge, updateNode } from '../engine/mutations.js';
import { answerPermissions } from '../engine/permissions.js';
import { readEdge, readNode, Redirect } from '../engine/read.js';
import { GraphError } from '../errors.js';
import type { ApiVersion } from '../schema/versions.js';
import { announceVersion, answeringVersion, pathVersion } from './api-version.js';
import { JSON_TYPE, sendJson, type AppSettings } from './app.js';
import { readMultipart } from './uploads.js';
import { toGraphRequest, type GraphRequest } from './graph-request.js';

/** Node and edge paths: `/<id>`, `/<id>/<edge>`, with or without a version prefix. */
export async function graphRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/*',
    handler: async (request, reply) => {
      const multipart = request.isMultipart() ? await readMultipart(request, settings.media.maxBytes) : undefined;
      const graph = toGraphRequest(request, multipart ? multipart.fields : request.body);
      const result = await answer(settings, request, reply, graph, multipart?.file);
      if (result instanceof Redirect) return reply.code(302).header('location', result.location).type(JSON_TYPE).send('');
      return sendJson(request, reply, 200, result);
    },
  });
}

async function answer(
  settings: AppSettings,
  request: FastifyRequest,
  reply: FastifyReply,
  graph: GraphRequest,
  upload: Buffer | undefined,
): Promise<unknown> {
  const version = pathVersion(graph.versionText, graph.components);
  if (version) announceVersion(reply, version);
  const readContext = (id: string) => versionedContext(settings, request, reply, graph, id, version);
  // A third component is an edge's alias (`accounts/test-users`) or the node a POST addresses (`friends/<id>`).
  const [id, edge, item, ...rest] = graph.components;
  if (id === undefined) throw GraphError.invalidParameter('No node specified');
  if (edge === 'permissions' && (item !== undefined || graph.method === 'delete') && rest.length === 0) {
    return answerPermissions(await readContext(id), id, graph.method, item);
  }
  if (rest.length > 0) throw GraphError.unknownPath(`/${[edge, item, ...rest].join('/')}`);
  const context = await readContext(id);
  if (graph.method === 'post') {
    return edge === undefined ? updateNode(context, id, graph.params) : postToEdge(context, id, edge, graph.params, { itemText: item, upload });
  }
  if (graph.method === 'delete') return edge === undefined ? deleteNode(context, id) : deleteFromEdge(context, id, edge, item);
  if (edge !== undefined) return readEdge(context, id, edge, graph.params, item);
  const { fields, metadata, limit, since, until } = graph.params;
  return readNode(context, id, { fields, metadata: metadata === '1' || metadata === 'true', edgeDefaults: { limit, since, until } });
}

async function versionedContext(
  settings: AppSettings,
  request: FastifyRequest,
  reply: FastifyReply,
  graph: GraphRequest,
  id: string,
  fromPath: ApiVersion | undefined,
): Promise<ReadContext> {
  const viewer = await authenticate(settings, graph, id);
  const version = answeringVersion(fromPath, viewer.app, settings.defaultVersion);
  announceVersion(reply, version);
  const publicUrl = settings.publicUrl ?? `${request.protocol}://${request.host}`;
  // Links carry the token the way the request did: as a parameter when it came as one, never
  // copied out of an Authorization header into a URL.
  const linkParams: Record<string, string> = {};
  if (graph.params.access_token) linkParams.access_token = graph.params.access_token;
  if (graph.params.appsecret_proof) linkParams.appsecret_proof = graph.params.appsecret_proof;
  return createReadContext({
    store: settings.store,
    schema: settings.schema,
    viewer,
    version,
    now: settings.clock(),
    publicUrl,
    profileHost: settings.profileHost,
    limits: settings.limits,
    media: settings.media,
    tokenLifetime: settings.tokenLifetime,
    linkParams,
    businessKey: settings.businessKey,
    link: (path, params) => {
      const query = new URLSearchParams(params).toString();
      return `${publicUrl}/${version}${path}${query ? `?${query}` : ''}`;
    },
  });
}

async function authenticate(settings: AppSettings, graph: GraphRequest, id: string): Promise<Viewer> {
  if (!graph.accessToken) throw id === 'me' ? GraphError.activeTokenRequired() : GraphError.noToken();
  return resolveViewer(settings.store, graph.accessToken, settings.clock(), graph.params.appsecret_proof);
}
