import type { FastifyInstance } from 'fastify';
import { GraphError } from '../errors.js';
import { deliveryFilter, describeDeliveries } from '../webhooks/delivery-view.js';
import { sendJson } from './reply.js';
import type { AppSettings } from './settings.js';

/**
 * Webhooks in the control API: every subscription, the deliveries with their attempts, and
 * redelivery. Registered by controlRoutes, behind its guard.
 */
export function webhookControlRoutes(app: FastifyInstance, settings: AppSettings): void {
  const webhooks = settings.store.webhooks;
  app.get('/_loom/webhooks/subscriptions', async (request, reply) => {
    const subscriptions = await webhooks.listSubscriptions();
    const data = subscriptions.map((sub) => ({ app_id: String(sub.appId), object: sub.object, callback_url: sub.callbackUrl, fields: sub.fields, active: sub.active }));
    return sendJson(request, reply, 200, { data });
  });
  app.get('/_loom/webhooks/deliveries', async (request, reply) => {
    const filter = deliveryFilter(request.query as Record<string, string | undefined>);
    if (typeof filter === 'string') throw GraphError.invalidParameter(filter);
    return sendJson(request, reply, 200, { data: await describeDeliveries(settings.store, await webhooks.listDeliveries(filter)) });
  });
  app.get<{ Params: { id: string } }>('/_loom/webhooks/deliveries/:id', async (request, reply) => {
    const delivery = /^\d{1,15}$/.test(request.params.id) ? await webhooks.getDelivery(Number(request.params.id)) : undefined;
    if (!delivery) throw noDelivery();
    return sendJson(request, reply, 200, (await describeDeliveries(settings.store, [delivery]))[0]);
  });
  app.post<{ Params: { id: string } }>('/_loom/webhooks/deliveries/:id/redeliver', async (request, reply) => {
    const found = /^\d{1,15}$/.test(request.params.id) && (await webhooks.redeliver(Number(request.params.id)));
    if (!found) throw noDelivery();
    return sendJson(request, reply, 200, { success: true });
  });
}

function noDelivery(): GraphError {
  return new GraphError(100, '(#100) No delivery has that id', { status: 404 });
}
