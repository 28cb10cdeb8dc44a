/**
 * The rows of the webhook tables both stores read, and how each becomes a record of the
 * WebhookStore interface; as in rows.ts, structured columns arrive as JSON text from SQLite and
 * decoded from PostgreSQL, and booleans as 0 and 1 from SQLite.
 */
import { decoded, type Structured } from './rows.js';
import type { ChangeRecord, DeliveryAttempt, DeliveryRecord, SubscriptionRecord } from './webhook-store.js';

export interface SubscriptionRow {
  app_id: number;
  object: string;
  callback_url: string;
  fields: Structured<string[]>;
  verify_token: string;
  active: boolean | number;
  created_time: number;
}

export interface ChangeRow {
  id: number;
  subject: number;
  field: string;
  time: number;
  app_id: number | null;
  lease_until: number;
}

export interface DeliveryRow {
  id: number;
  app_id: number;
  object: string;
  callback_url: string;
  body: string;
  entry_count: number;
  created_time: number;
  status: DeliveryRecord['status'];
  attempt_count: number;
  attempts: Structured<DeliveryAttempt[]>;
  next_attempt_at: number;
  failing_since: number | null;
}

export const DELIVERY_COLUMNS = `id, app_id, object, callback_url, body, entry_count, created_time, status, attempt_count, attempts,
  next_attempt_at, failing_since`;

export function toSubscription(row: SubscriptionRow): SubscriptionRecord {
  return {
    appId: row.app_id,
    object: row.object,
    callbackUrl: row.callback_url,
    fields: decoded(row.fields),
    verifyToken: row.verify_token,
    active: Boolean(row.active),
    createdTime: row.created_time,
  };
}

export function toChange(row: ChangeRow): ChangeRecord {
  return { id: row.id, subject: row.subject, field: row.field, time: row.time, appId: row.app_id, leaseUntil: row.lease_until };
}

export function toDelivery(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    appId: row.app_id,
    object: row.object,
    callbackUrl: row.callback_url,
    body: row.body,
    entryCount: row.entry_count,
    createdTime: row.created_time,
    status: row.status,
    attemptCount: row.attempt_count,
    attempts: decoded(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    failingSince: row.failing_since,
  };
}
