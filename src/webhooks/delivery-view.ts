import { graphTime } from '../clock/graph-time.js';
import type { Store } from '../store/store.js';
import type { ObjectId } from '../ids.js';
import type { DeliveryFilter, DeliveryRecord, DeliveryStatus } from '../store/webhook-store.js';
import { signatureHeaders } from './signing.js';

/** The most deliveries one listing shows. */
export const MAX_LISTED_DELIVERIES = 500;

/**
 * Deliveries as the control API, the CLI and the Explorer show them: the body as sent, its
 * signatures, every recorded attempt with the callback's answer, and when the next one is due.
 */
export async function describeDeliveries(store: Store, deliveries: readonly DeliveryRecord[]): Promise<Record<string, unknown>[]> {
  const apps = await store.getApps([...new Set(deliveries.map((delivery) => delivery.appId))]);
  return deliveries.map((delivery) => {
    const secret = apps.get(delivery.appId)?.secret;
    return {
      id: String(delivery.id),
      app_id: String(delivery.appId),
      object: delivery.object,
      callback_url: delivery.callbackUrl,
      status: delivery.status,
      entry_count: delivery.entryCount,
      created_time: graphTime(delivery.createdTime),
      attempt_count: delivery.attemptCount,
      ...(delivery.status === 'pending' ? { next_attempt_time: graphTime(delivery.nextAttemptAt) } : {}),
      ...(delivery.failingSince !== null ? { failing_since: graphTime(delivery.failingSince) } : {}),
      attempts: delivery.attempts.map((attempt) => ({ ...attempt, time: graphTime(attempt.time) })),
      body: delivery.body,
      ...(secret !== undefined ? { headers: signatureHeaders(delivery.body, secret) } : {}),
    };
  });
}

/** A listing's filter from text parameters, or the reason it is not one. */
export function deliveryFilter(params: { app_id?: string; status?: string; limit?: string; before?: string }): DeliveryFilter | string {
  const whole = (text: string | undefined) => (text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined);
  const filter: DeliveryFilter = { limit: 50 };
  if (params.limit !== undefined) {
    const limit = whole(params.limit);
    if (limit === undefined || limit < 1 || limit > MAX_LISTED_DELIVERIES) return `limit must be a whole number from 1 to ${MAX_LISTED_DELIVERIES}`;
    filter.limit = limit;
  }
  if (params.app_id !== undefined) {
    const appId: ObjectId | undefined = whole(params.app_id);
    if (appId === undefined) return 'app_id must be an app id';
    filter.appId = appId;
  }
  if (params.before !== undefined) {
    const before = whole(params.before);
    if (before === undefined) return 'before must be a delivery id';
    filter.before = before;
  }
  if (params.status !== undefined) {
    if (!['pending', 'delivered', 'failed'].includes(params.status)) return 'status must be pending, delivered or failed';
    filter.status = params.status as DeliveryStatus;
  }
  return filter;
}
