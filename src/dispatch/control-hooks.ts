import { setTimeout as sleep } from 'node:timers/promises';
import type { Viewer } from '../auth/viewer.js';
import type { ControlPlane } from '../control/control-plane.js';
import type { GraphError } from '../errors.js';
import type { GraphRequest } from './graph-request.js';
import type { GraphResponse } from './graph-response.js';
import type { DispatchSettings } from './settings.js';

/** What dispatch learns about one request while answering it, for its journal entry. */
export interface CallerNote {
  appId?: string;
  userId?: string;
  error?: GraphError;
  /** Headers the answer carries whatever it is (rate-limit usage). */
  headers?: Record<string, string>;
}

/** The path a fault's glob and the journal see: the components without a version prefix. */
function graphPath(graph: GraphRequest): string {
  return `/${graph.components.join('/')}`;
}

/**
 * Once the caller is known: notes it for the journal, counts the call against its rate limits
 * (when they are on), then lets a matching fault delay the request or answer it with its error
 * in place of the graph's answer.
 */
export async function callerKnown(settings: DispatchSettings, graph: GraphRequest, viewer: Viewer, note: CallerNote): Promise<void> {
  const control = settings.control;
  note.appId = String(viewer.app.id);
  // A page token's calls are its administrator's in the journal, and the page's own in the rate limits.
  const person = viewer.adminId ?? viewer.userId;
  if (person !== null) note.userId = viewer.ids.scope(person);
  if (settings.rateLimits) {
    const caller = viewer.userId === null ? null : { id: viewer.userId, kind: viewer.kind === 'page' ? ('page' as const) : ('user' as const) };
    const accounting = await settings.rateLimits.account(viewer.app.id, caller);
    note.headers = accounting.headers;
    if (accounting.error) throw accounting.error;
  }
  const firing = control.fire({ method: graph.method.toUpperCase(), path: graphPath(graph), appId: note.appId, userId: note.userId });
  const effect = firing && (await firing);
  if (!effect) return;
  if (effect.delayMs > 0) await sleep(effect.delayMs);
  if (effect.error) throw effect.error;
}

/** One journal entry per dispatched request: a request sent alone, and each operation of a batch. */
export function journalAnswer(control: ControlPlane, graph: GraphRequest, response: GraphResponse, note: CallerNote, durationMs: number): void {
  const { appId, userId, error } = note;
  control.journal.record({
    time: control.clock.now(),
    method: graph.method.toUpperCase(),
    path: graphPath(graph),
    params: graph.params,
    status: response.status,
    ...(error ? { error_code: error.code } : {}),
    ...(error?.subcode !== undefined ? { error_subcode: error.subcode } : {}),
    duration_ms: Math.round(durationMs),
    ...(appId !== undefined ? { app_id: appId } : {}),
    ...(userId !== undefined ? { user_id: userId } : {}),
    trace_id: graph.traceId,
    ...(graph.inBatch ? { in_batch: true } : {}),
  });
}
