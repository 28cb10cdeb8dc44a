import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type { Viewer } from '../auth/viewer.js';
import type { ControlPlane } from '../control/control-plane.js';
import type { GraphRequest } from './graph-request.js';
import { noteCaller } from './journal-hook.js';

/**
 * Once the caller is known: notes it for the journal, then lets a matching fault delay the
 * request or answer it with its error in place of the graph's answer.
 */
export async function callerKnown(control: ControlPlane, request: FastifyRequest, graph: GraphRequest, viewer: Viewer): Promise<void> {
  noteCaller(request, viewer);
  const effect = await control.fire({
    method: graph.method.toUpperCase(),
    path: `/${graph.components.join('/')}`,
    appId: String(viewer.app.id),
    userId: viewer.userId === null ? undefined : viewer.ids.scope(viewer.userId),
  });
  if (!effect) return;
  if (effect.delayMs > 0) await sleep(effect.delayMs);
  if (effect.error) throw effect.error;
}
