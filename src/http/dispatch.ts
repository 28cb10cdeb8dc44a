import { debugToken } from '../auth/debug-token.js';
import { authenticatedClient, formEncodedToken, issueForGrant } from '../auth/token-endpoint.js';
import { appViewer, resolveViewer, type Viewer } from '../auth/viewer.js';
import { createReadContext, type ReadContext } from '../engine/context.js';
import { deleteFromEdge, deleteNode, postToEdge, updateNode } from '../engine/mutations.js';
import { answerPermissions } from '../engine/permissions.js';
import { Redirect } from '../engine/picture.js';
import { readPublicPicture } from '../engine/public-picture.js';
import { readEdge, readManyEdges, readManyNodes, readNode } from '../engine/read.js';
import { answerSearch } from '../engine/search.js';
import { GraphError } from '../errors.js';
import { rules } from '../schema/versions.js';
import { answerWebhookEdge, WEBHOOK_EDGES } from '../webhooks/subscriptions-api.js';
import { runBatch } from './batch.js';
import { callerKnown, journalAnswer, type CallerNote } from './control-hooks.js';
import { PlainText, presentError, presentPlainText, presentRedirect, presentValue, type DebugMessage, type GraphResponse } from './graph-response.js';
import { AnsweringVersion } from './api-version.js';
import type { GraphRequest } from './graph-request.js';
import { linkBaseUrl } from './intercept-proxy.js';
import { outputOptions } from './output-options.js';
import type { AppSettings } from './settings.js';

/**
 * The one way into the graph. A request sent alone, each operation of a batch and each id of
 * `ids=` all pass here, so authentication, errors, ETags and rendering have one implementation.
 * The steps run in this order; a step that concerns every Graph request (version rules,
 * injected faults, a request journal, usage accounting) belongs in this function, nowhere else.
 */
export async function dispatch(settings: AppSettings, request: GraphRequest): Promise<GraphResponse> {
  const started = performance.now();
  const note: CallerNote = {};
  const version = new AnsweringVersion(settings.defaultVersion);
  const response = await respond(settings, request, note, version);
  Object.assign(response.headers, note.headers);
  // Errors too name the version that answered, as far as the request got before failing.
  response.headers['Facebook-API-Version'] = version.current;
  journalAnswer(settings.control, request, response, note, performance.now() - started);
  return response;
}

async function respond(settings: AppSettings, request: GraphRequest, note: CallerNote, version: AnsweringVersion): Promise<GraphResponse> {
  const options = outputOptions(request.params);
  try {
    version.readPath(request.versionText, request.components);
    // The name is refused, never echoed: an error answer is not wrapped in it either.
    if (options.callbackRefused) throw GraphError.invalidParameter('The callback parameter must be a JavaScript name: letters, digits, _ and $, joined by dots');
    const normalised = withFieldsText(request);
    const notes = new Set<string>();
    const outcome = await answer(settings, normalised, notes, note, version);
    if (outcome instanceof Redirect) return presentRedirect(outcome.location);
    if (outcome instanceof PlainText) return presentPlainText(outcome);
    const debug = [...notes].map((message): DebugMessage => ({ message, type: 'warning' }));
    return await presentValue(options, { method: normalised.method, ifNoneMatch: normalised.headers['if-none-match'] }, 200, outcome, {}, debug);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    note.error = error;
    return presentError(options, error, request.traceId);
  }
}

/** `fields=["id","likes.limit(2){name}"]` (npm `fb` JSON-encodes arrays) means `fields=id,likes.limit(2){name}`. */
function withFieldsText(request: GraphRequest): GraphRequest {
  const fields = request.params.fields;
  if (fields === undefined || !fields.trimStart().startsWith('[')) return request;
  let list: unknown;
  try {
    list = JSON.parse(fields);
  } catch {
    // Not JSON: the parser names the fault in the expression as it stands.
    return request;
  }
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw GraphError.invalidParameter('The fields parameter must be a list of field names, as text or a JSON array of strings');
  }
  return { ...request, params: { ...request.params, fields: list.join(',') } };
}

/** Notes on what the answer leaves out go to `notes`, for `debug=`. */
async function answer(settings: AppSettings, graph: GraphRequest, notes: Set<string>, note: CallerNote, version: AnsweringVersion): Promise<unknown> {
  // A third component is an edge's alias (`accounts/test-users`) or the node a POST addresses (`friends/<id>`).
  const [id, edge, item, ...rest] = graph.components;
  if (id === 'oauth' && edge === 'access_token' && item === undefined && graph.method !== 'delete') {
    return answerTokenEndpoint(settings, graph, note, version);
  }
  if (id === 'debug_token' && edge === undefined && graph.method === 'get') return answerDebugToken(settings, graph, note, version);
  if (graph.params.ids !== undefined && edge === undefined) return answerIds(settings, graph, id, notes, note, version);
  if (id === undefined) return answerRoot(settings, graph, version);
  if (graph.files.length > 1) throw GraphError.invalidParameter('Send one image per request');
  const upload = graph.files[0]?.bytes;
  if (edge === 'permissions' && (item !== undefined || graph.method === 'delete') && rest.length === 0) {
    return answerPermissions(await readContext(settings, graph, id, notes, note, version), id, graph.method, item);
  }
  if (rest.length > 0) throw GraphError.unknownPath(`/${[edge, item, ...rest].join('/')}`);
  if (!graph.accessToken && graph.method === 'get' && edge === 'picture' && item === undefined && id !== 'me') {
    return readPublicPicture(settings.store, settings.schema, settings.publicUrl ?? graph.origin, id, graph.params);
  }
  const context = await readContext(settings, graph, id, notes, note, version);
  if (edge !== undefined && WEBHOOK_EDGES.has(edge) && item === undefined) {
    return answerWebhookEdge(context, settings.webhooks, id, edge, graph.method, graph.params);
  }
  if (id === 'search' && edge === undefined && graph.method === 'get') return answerSearch(context, graph.params);
  if (graph.method === 'post') {
    return edge === undefined ? updateNode(context, id, graph.params) : postToEdge(context, id, edge, graph.params, { itemText: item, upload });
  }
  if (graph.method === 'delete') return edge === undefined ? deleteNode(context, id) : deleteFromEdge(context, id, edge, item);
  if (edge !== undefined) return readEdge(context, id, edge, graph.params, item);
  const { fields, metadata, limit, since, until } = graph.params;
  return readNode(context, id, { fields, metadata: metadata === '1' || metadata === 'true', edgeDefaults: { limit, since, until } });
}

/** `GET|POST /oauth/access_token`: the client is the caller once its secret is proven, before any token is issued. */
async function answerTokenEndpoint(settings: AppSettings, graph: GraphRequest, note: CallerNote, version: AnsweringVersion): Promise<unknown> {
  const app = await authenticatedClient(settings.store, graph.params);
  const answering = version.settle(app);
  await callerKnown(settings, graph, appViewer(app), note);
  const token = await issueForGrant(settings.store, app, graph.params, { now: settings.clock.now(), tokenLifetime: settings.tokenLifetime });
  return rules.has('token-endpoint-json', answering) ? token : new PlainText(formEncodedToken(token));
}

/** `GET /debug_token?input_token=…` with an app token, or a user token, of the same app. */
async function answerDebugToken(settings: AppSettings, graph: GraphRequest, note: CallerNote, version: AnsweringVersion): Promise<unknown> {
  const now = settings.clock.now();
  const caller = await authenticate(settings, graph, 'debug_token');
  version.settle(caller.app);
  await callerKnown(settings, graph, caller, note);
  return debugToken(settings.store, caller, graph.params.input_token, now);
}

/** `POST /` with `batch`: each operation is dispatched in turn, exactly as if it came alone. */
async function answerRoot(settings: AppSettings, graph: GraphRequest, version: AnsweringVersion): Promise<unknown> {
  if (graph.params.batch === undefined || graph.method !== 'post') throw GraphError.invalidParameter('No node specified');
  if (graph.inBatch) throw new GraphError(1, 'A batch operation cannot hold a batch of its own', { type: 'GraphBatchException' });
  // A bad batch token fails the whole call, as on the real service, not each operation that would use it.
  if (graph.accessToken) version.settle((await authenticate(settings, graph, '')).app);
  // An operation whose relative_url names no version is answered in the batch's.
  return runBatch(graph, (operation) => dispatch(settings, { ...operation, versionText: operation.versionText ?? graph.versionText }));
}

/** The most ids one `ids=` request may name. */
export const MAX_IDS = 50;

/** `GET /?ids=a,b` (nodes) and `GET /<edge>?ids=a,b` (one collection per id), keyed by each id as given. */
async function answerIds(
  settings: AppSettings,
  graph: GraphRequest,
  edge: string | undefined,
  notes: Set<string>,
  note: CallerNote,
  version: AnsweringVersion,
): Promise<unknown> {
  if (graph.method !== 'get') throw GraphError.invalidParameter(`Unsupported ${graph.method} request with ids`);
  const ids = graph.params.ids!.split(',').map((id) => id.trim());
  if (ids.some((id) => id === '')) throw GraphError.invalidParameter('Cannot specify an empty identifier');
  if (ids.length > MAX_IDS) throw GraphError.invalidParameter(`Too many ids: at most ${MAX_IDS} may be requested at once`);
  const context = await readContext(settings, graph, ids.includes('me') ? 'me' : ids[0]!, notes, note, version);
  if (edge !== undefined) return readManyEdges(context, ids, edge, graph.params);
  const { fields, limit, since, until } = graph.params;
  return readManyNodes(context, ids, { fields, edgeDefaults: { limit, since, until } });
}

async function readContext(
  settings: AppSettings,
  graph: GraphRequest,
  id: string,
  notes: Set<string>,
  note: CallerNote,
  version: AnsweringVersion,
): Promise<ReadContext> {
  const viewer = await authenticate(settings, graph, id);
  const apiVersion = version.settle(viewer.app);
  await callerKnown(settings, graph, viewer, note);
  // Links carry the token the way the request did: as a parameter when it came as one, never
  // copied out of an Authorization header into a URL.
  const linkParams: Record<string, string> = {};
  if (graph.params.access_token) linkParams.access_token = graph.params.access_token;
  if (graph.params.appsecret_proof) linkParams.appsecret_proof = graph.params.appsecret_proof;
  return createReadContext({
    store: settings.store,
    schema: settings.schema,
    viewer,
    version: apiVersion,
    now: settings.clock.now(),
    // A write may change grants under the version read as it arrived: only reads trust it.
    authVersion: graph.method === 'get' ? graph.authVersion : undefined,
    startedAt: graph.receivedAt,
    publicUrl: linkBaseUrl(graph.origin, settings.publicUrl),
    profileHost: settings.profileHost,
    limits: settings.limits,
    media: settings.media,
    tokenLifetime: settings.tokenLifetime,
    linkParams,
    businessKey: settings.businessKey,
    notes,
  });
}

async function authenticate(settings: AppSettings, graph: GraphRequest, id: string): Promise<Viewer> {
  if (!graph.accessToken) throw id === 'me' ? GraphError.activeTokenRequired() : GraphError.noToken();
  return resolveViewer(settings.store, graph.accessToken, settings.clock.now(), graph.params.appsecret_proof, graph.authVersion);
}
