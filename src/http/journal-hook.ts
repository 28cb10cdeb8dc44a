import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../auth/viewer.js';
import type { ControlPlane } from '../control/control-plane.js';
import type { GraphError } from '../errors.js';
import { toGraphRequest } from './graph-request.js';

/** What is learnt about a request while it is answered, for its journal entry. */
interface Noted {
  appId?: string;
  userId?: string;
  error?: GraphError;
}

const noted = new WeakMap<FastifyRequest, Noted>();

function note(request: FastifyRequest): Noted {
  let entry = noted.get(request);
  if (!entry) noted.set(request, (entry = {}));
  return entry;
}

export function noteCaller(request: FastifyRequest, viewer: Viewer): void {
  const entry = note(request);
  entry.appId = String(viewer.app.id);
  if (viewer.userId !== null) entry.userId = viewer.ids.scope(viewer.userId);
}

export function noteError(request: FastifyRequest, error: GraphError): void {
  note(request).error = error;
}

/** Paths the journal leaves out: the control plane itself and the Explorer's own files. */
const UNJOURNALED = /^\/(_loom|explorer)(\/|$|\?)/;

export function journalRequest(control: ControlPlane, request: FastifyRequest, reply: FastifyReply): void {
  const url = request.raw.url ?? '/';
  if (UNJOURNALED.test(url)) return;
  const graph = toGraphRequest(request);
  const { appId, userId, error } = noted.get(request) ?? {};
  control.journal.record({
    time: control.clock.now(),
    method: request.method,
    path: url.split('?')[0]!,
    params: graph.params,
    status: reply.statusCode,
    ...(error ? { error_code: error.code } : {}),
    ...(error?.subcode !== undefined ? { error_subcode: error.subcode } : {}),
    duration_ms: Math.round(reply.elapsedTime),
    ...(appId !== undefined ? { app_id: appId } : {}),
    ...(userId !== undefined ? { user_id: userId } : {}),
    trace_id: request.id,
  });
}
