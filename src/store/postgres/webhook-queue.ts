import type pg from 'pg';
import type { ObjectId } from '../../ids.js';
import { KEPT_ATTEMPTS, type AttemptOutcome, type ChangeRecord, type ClaimedChange, type DeliveryAttempt, type DeliveryFilter, type DeliveryRecord, type NewDelivery, type SubscriptionRecord, type WebhookStore } from '../webhook-store.js';
import { statement, type Statement } from './statements.js';
import { DELIVERY_COLUMNS, toChange, toDelivery, toSubscription, type ChangeRow, type DeliveryRow, type SubscriptionRow } from '../webhook-rows.js';
import { columnArrays } from './column-arrays.js';

/** How the webhook tables reach the store's pool: single statements, and work in one transaction. */
export interface PostgresAccess {
  rows<R extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]>;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

const s = {
  insertChange: statement('insertChange', 'INSERT INTO webhook_changes (subject, field, time, app_id) VALUES ($1, $2, $3, $4)'),
  upsertSubscription: statement(
    'upsertSubscription',
    `INSERT INTO webhook_subscriptions (app_id, object, callback_url, fields, verify_token, active, created_time)
     VALUES ($1, $2, $3, $4::json, $5, $6, $7)
     ON CONFLICT (app_id, object) DO UPDATE SET callback_url = excluded.callback_url, fields = excluded.fields,
       verify_token = excluded.verify_token, active = excluded.active`,
  ),
  listSubscriptions: statement(
    'listSubscriptions',
    'SELECT * FROM webhook_subscriptions WHERE $1::bigint IS NULL OR app_id = $1 ORDER BY app_id, object',
  ),
  deleteSubscriptions: statement(
    'deleteSubscriptions',
    'DELETE FROM webhook_subscriptions WHERE app_id = $1 AND ($2::text IS NULL OR object = $2)',
  ),
  setSubscriptionActive: statement('setSubscriptionActive', 'UPDATE webhook_subscriptions SET active = $1 WHERE app_id = $2 AND object = $3'),
  // SKIP LOCKED: processes claiming at once each take different rows instead of waiting on each other.
  claimChanges: statement(
    'claimChanges',
    `UPDATE webhook_changes SET lease_until = $2 + $3 WHERE id IN (
       SELECT id FROM webhook_changes WHERE lease_until <= $2 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, subject, field, time, app_id, lease_until`,
  ),
  // Locked until the transaction ends, so no claim can take them between this check and the writes.
  lockHeldChanges: statement(
    'lockHeldChanges',
    `SELECT c.id FROM webhook_changes c JOIN unnest($1::bigint[], $2::bigint[]) AS x(id, lease)
       ON c.id = x.id AND c.lease_until = x.lease FOR UPDATE OF c`,
  ),
  releaseHeldChanges: statement(
    'releaseHeldChanges',
    `UPDATE webhook_changes c SET lease_until = 0 FROM unnest($1::bigint[], $2::bigint[]) AS x(id, lease)
       WHERE c.id = x.id AND c.lease_until = x.lease`,
  ),
  insertDeliveries: statement(
    'insertDeliveries',
    `INSERT INTO webhook_deliveries (app_id, object, callback_url, body, entry_count, created_time, status, next_attempt_at)
     SELECT a, o, c, b, n, t, 'pending', 0 FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::bigint[]) AS x(a, o, c, b, n, t)`,
  ),
  deleteChanges: statement('deleteChanges', 'DELETE FROM webhook_changes WHERE id = ANY($1::bigint[])'),
  claimDeliveries: statement(
    'claimDeliveries',
    `UPDATE webhook_deliveries SET lease_until = $2 + $3 WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $2 AND lease_until <= $2
       ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING ${DELIVERY_COLUMNS}`,
  ),
  recordAttempt: statement(
    'recordAttempt',
    `UPDATE webhook_deliveries SET status = $2, attempt_count = attempt_count + 1,
       attempts = (SELECT json_agg(e.a ORDER BY e.n) FROM json_array_elements((attempts::jsonb || $3::jsonb)::json) WITH ORDINALITY AS e(a, n)
         WHERE e.n > json_array_length(attempts) + 1 - $6::integer),
       next_attempt_at = $4, failing_since = $5, lease_until = 0
     WHERE id = $1`,
  ),
  listDeliveries: statement(
    'listDeliveries',
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
     WHERE ($1::bigint IS NULL OR app_id = $1) AND ($2::text IS NULL OR status = $2) AND ($3::bigint IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
  ),
  selectDelivery: statement('selectDelivery', `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`),
  redeliver: statement(
    'redeliver',
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = 0, failing_since = NULL, lease_until = 0 WHERE id = $1`,
  ),
};

/** The outbox op of a write batch, run inside the batch's transaction. */
export async function recordChange(client: pg.ClientBase, subject: ObjectId, field: string, time: number, appId: ObjectId | null): Promise<void> {
  await client.query({ ...s.insertChange, values: [subject, field, time, appId] });
}

export class PostgresWebhooks implements WebhookStore {
  constructor(private readonly db: PostgresAccess) {}

  async saveSubscription(sub: SubscriptionRecord): Promise<void> {
    await this.db.rows(s.upsertSubscription, [sub.appId, sub.object, sub.callbackUrl, JSON.stringify(sub.fields), sub.verifyToken, sub.active, sub.createdTime]);
  }

  async listSubscriptions(appId?: ObjectId): Promise<SubscriptionRecord[]> {
    const rows = await this.db.rows<SubscriptionRow>(s.listSubscriptions, [appId ?? null]);
    return rows.map(toSubscription);
  }

  async deleteSubscriptions(appId: ObjectId, object?: string): Promise<number> {
    return this.db.transaction(async (client) => (await client.query({ ...s.deleteSubscriptions, values: [appId, object ?? null] })).rowCount ?? 0);
  }

  async setSubscriptionActive(appId: ObjectId, object: string, active: boolean): Promise<void> {
    await this.db.rows(s.setSubscriptionActive, [active, appId, object]);
  }

  async claimChanges(limit: number, now: number, leaseSeconds: number): Promise<ChangeRecord[]> {
    const rows = await this.db.rows<ChangeRow>(s.claimChanges, [limit, now, leaseSeconds]);
    return rows.map(toChange).sort((a, b) => a.id - b.id);
  }

  async queueDeliveries(deliveries: readonly NewDelivery[], doneChanges: readonly ClaimedChange[]): Promise<boolean> {
    return this.db.transaction(async (client) => {
      if (doneChanges.length > 0) {
        const claims = columnArrays(doneChanges, (change) => change.id, (change) => change.leaseUntil);
        const held = await client.query({ ...s.lockHeldChanges, values: claims });
        if (held.rowCount !== doneChanges.length) {
          await client.query({ ...s.releaseHeldChanges, values: claims });
          return false;
        }
        await client.query({ ...s.deleteChanges, values: [claims[0]] });
      }
      if (deliveries.length > 0) {
        await client.query({
          ...s.insertDeliveries,
          values: columnArrays(deliveries, (d) => d.appId, (d) => d.object, (d) => d.callbackUrl, (d) => d.body, (d) => d.entryCount, (d) => d.createdTime),
        });
      }
      return true;
    });
  }

  async claimDeliveries(limit: number, now: number, leaseSeconds: number): Promise<DeliveryRecord[]> {
    const rows = await this.db.rows<DeliveryRow>(s.claimDeliveries, [limit, now, leaseSeconds]);
    return rows.map(toDelivery).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id);
  }

  async recordAttempt(id: number, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.db.rows(s.recordAttempt, [id, outcome.status, JSON.stringify([attempt]), outcome.nextAttemptAt, outcome.failingSince, KEPT_ATTEMPTS]);
  }

  async listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    const rows = await this.db.rows<DeliveryRow>(s.listDeliveries, [filter.appId ?? null, filter.status ?? null, filter.before ?? null, filter.limit]);
    return rows.map(toDelivery);
  }

  async getDelivery(id: number): Promise<DeliveryRecord | undefined> {
    const [row] = await this.db.rows<DeliveryRow>(s.selectDelivery, [id]);
    return row && toDelivery(row);
  }

  async redeliver(id: number): Promise<boolean> {
    return this.db.transaction(async (client) => ((await client.query({ ...s.redeliver, values: [id] })).rowCount ?? 0) > 0);
  }
}
