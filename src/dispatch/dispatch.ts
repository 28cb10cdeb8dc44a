import { resolveViewer, type Viewer } from '../auth/viewer.js';
import { createReadContext, type ReadContext } from '../engine/request/context.js';
import { deleteFromEdge, deleteNode, postToEdge, updateNode } from '../engine/write/mutations.js';
import { Redirect } from '../schema/behaviours.js';
import { readEdge, readManyEdges, readManyNodes, readNode } from '../engine/read/read.js';
import { GraphError } from '../errors.js';
import type { ApiVersion } from '../schema/versions.js';
import { runBatch } from './batch.js';
import { callerKnown, journalAnswer, type CallerNote } from './control-hooks.js';
import { conditionally, PlainText, presentError, presentPlainText, presentRedirect, presentValue, type DebugMessage, type GraphResponse } from './graph-response.js';
import { AnsweringVersion } from './api-version.js';
import type { GraphRequest } from './graph-request.js';
import { outputOptions } from './output-options.js';
import type { DispatchSettings } from './settings.js';
import type { FoundPath } from './special-paths.js';

/**
 * The one way into the graph. A request sent alone, each operation of a batch and each id of
 * `ids=` all pass here, so authentication, errors, ETags and rendering have one implementation.
 * The steps run in this order; a step that concerns every Graph request (version rules,
 * injected faults, a request journal, usage accounting) belongs in this function, nowhere else.
 */
export async function dispatch(settings: DispatchSettings, request: GraphRequest): Promise<GraphResponse> {
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

async function respond(settings: DispatchSettings, request: GraphRequest, note: CallerNote, version: AnsweringVersion): Promise<GraphResponse> {
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
    const response = await presentValue(options, { method: normalised.method }, 200, outcome, {}, debug);
    return conditionally(response, normalised.headers['if-none-match']);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    note.error = error;
    return presentError(options, error, request.traceId, version.current);
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
async function answer(settings: DispatchSettings, graph: GraphRequest, notes: Set<string>, note: CallerNote, version: AnsweringVersion): Promise<unknown> {
  // A third component is an edge's alias (`accounts/test-users`) or the node a POST addresses (`friends/<id>`).
  const [id, edge, item, ...rest] = graph.components;
  const service = settings.paths.find(graph, true);
  if (service) return answerSpecial(settings, graph, service, notes, note, version);
  if (graph.params.ids !== undefined && edge === undefined) return answerIds(settings, graph, id, notes, note, version);
  if (id === undefined) return answerRoot(settings, graph, version);
  if (graph.files.length > 1) throw GraphError.invalidParameter('Send one image per request');
  if (rest.length > 0) throw GraphError.unknownPath(`/${[edge, item, ...rest].join('/')}`);
  const special = settings.paths.find(graph, false);
  if (special) return answerSpecial(settings, graph, special, notes, note, version);
  const caller = await knownCaller(settings, graph, id, note, version);
  const context = contextFor(settings, graph, caller, notes);
  if (graph.method === 'post') {
    const upload = graph.files[0]?.bytes;
    return edge === undefined ? updateNode(context, id, graph.params) : postToEdge(context, id, edge, graph.params, { itemText: item, upload });
  }
  if (graph.method === 'delete') return edge === undefined ? deleteNode(context, id) : deleteFromEdge(context, id, edge, item);
  if (edge !== undefined) return readEdge(context, id, edge, graph.params, item);
  const { fields, metadata, limit, since, until } = graph.params;
  return readNode(context, id, { fields, metadata: metadata === '1' || metadata === 'true', edgeDefaults: { limit, since, until } });
}

/**
 * A path of the handler table, answered by the room that owns it once its caller is known, as
 * the entry says: proven by the request itself, named by its token, or nobody.
 */
async function answerSpecial(
  settings: DispatchSettings,
  graph: GraphRequest,
  { entry, call }: FoundPath,
  notes: Set<string>,
  note: CallerNote,
  version: AnsweringVersion,
): Promise<unknown> {
  switch (entry.caller) {
    case 'none':
      return entry.answer(call);
    case 'proven': {
      // The caller is known once its proof is checked, before anything is answered for it.
      const caller = await entry.prove(call.params);
      const answering = version.settle(caller.app);
      await callerKnown(settings, graph, caller, note);
      return entry.answer(caller, answering, call);
    }
    case 'token': {
      const caller = await knownCaller(settings, graph, call.id, note, version);
      return entry.answer(contextFor(settings, graph, caller, notes), call);
    }
  }
}

/** `POST /` with `batch`: each operation is dispatched in turn, exactly as if it came alone. */
async function answerRoot(settings: DispatchSettings, graph: GraphRequest, version: AnsweringVersion): Promise<unknown> {
  if (graph.params.batch === undefined || graph.method !== 'post') throw GraphError.invalidParameter('No node specified');
  if (graph.inBatch) throw new GraphError(1, 'A batch operation cannot hold a batch of its own', { type: 'GraphBatchException' });
  // A bad batch token fails the whole call, as on the real service, not each operation that would use it.
  if (graph.accessToken) version.settle((await authenticate(settings, graph, '')).app);
  // An operation whose relative_url names no version is answered in the batch's. Each reads the
  // store's versions afresh, as a request alone does first: one before it may have changed them.
  return runBatch(graph, async (operation) => {
    const versions = await settings.store.versions();
    return dispatch(settings, { ...operation, versionText: operation.versionText ?? graph.versionText, authVersion: versions.auth });
  });
}

/** The most ids one `ids=` request may name. */
const MAX_IDS = 50;

/** `GET /?ids=a,b` (nodes) and `GET /<edge>?ids=a,b` (one collection per id), keyed by each id as given. */
async function answerIds(
  settings: DispatchSettings,
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
  const caller = await knownCaller(settings, graph, ids.includes('me') ? 'me' : ids[0]!, note, version);
  const context = contextFor(settings, graph, caller, notes);
  if (edge !== undefined) return readManyEdges(context, ids, edge, graph.params);
  const { fields, limit, since, until } = graph.params;
  return readManyNodes(context, ids, { fields, edgeDefaults: { limit, since, until } });
}

/** Who calls, once authenticated, its call counted and any fault applied; what it reads is answered in `apiVersion` at `now`. */
interface Caller {
  viewer: Viewer;
  apiVersion: ApiVersion;
  now: number;
}

async function knownCaller(settings: DispatchSettings, graph: GraphRequest, id: string, note: CallerNote, version: AnsweringVersion): Promise<Caller> {
  // One reading of the clock: the token's expiry and the answer go by the same second.
  const now = settings.clock.now();
  const viewer = await authenticate(settings, graph, id, now);
  const apiVersion = version.settle(viewer.app);
  await callerKnown(settings, graph, viewer, note);
  return { viewer, apiVersion, now };
}

function contextFor(settings: DispatchSettings, graph: GraphRequest, caller: Caller, notes: Set<string>): ReadContext {
  const { viewer, apiVersion } = caller;
  // Links carry the token the way the request did: as a parameter when it came as one, never
  // copied out of an Authorization header into a URL.
  const linkParams: Record<string, string> = {};
  if (graph.params.access_token) linkParams.access_token = graph.params.access_token;
  if (graph.params.appsecret_proof) linkParams.appsecret_proof = graph.params.appsecret_proof;
  return createReadContext({
    // A read is answered from the store's replicas where it has them; a write reads the primary.
    store: graph.method === 'get' ? settings.readStore : settings.store,
    schema: settings.schema,
    viewer,
    version: apiVersion,
    now: caller.now,
    // A write may change grants under the version read as it arrived: only reads trust it.
    authVersion: graph.method === 'get' ? graph.authVersion : undefined,
    startedAt: graph.receivedAt,
    publicUrl: graph.linkBase,
    profileHost: settings.profileHost,
    limits: settings.limits,
    media: settings.media,
    tokenLifetime: settings.tokenLifetime,
    linkParams,
    businessKey: settings.businessKey,
    notes,
  });
}

async function authenticate(settings: DispatchSettings, graph: GraphRequest, id: string, now = settings.clock.now()): Promise<Viewer> {
  if (!graph.accessToken) throw id === 'me' ? GraphError.activeTokenRequired() : GraphError.noToken();
  return resolveViewer(settings.store, graph.accessToken, now, graph.params.appsecret_proof, graph.authVersion);
}
