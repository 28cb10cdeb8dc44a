import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';
import { KEPT_ATTEMPTS, type AttemptOutcome, type ChangeRecord, type ClaimedChange, type DeliveryAttempt, type DeliveryFilter, type DeliveryRecord, type NewDelivery, type SubscriptionRecord, type WebhookStore } from '../webhook-store.js';
import { DELIVERY_COLUMNS, toChange, toDelivery, toSubscription, type ChangeRow, type DeliveryRow, type SubscriptionRow } from '../webhook-rows.js';
import { decoded } from '../rows.js';

/**
 * Webhook tables on SQLite. A claim reads and leases its rows in one immediate transaction, which
 * holds the database's write lock: two processes can never lease the same row.
 */
export class SqliteWebhooks implements WebhookStore {
  private readonly s;
  private readonly claimChangesTx;
  private readonly queueTx;
  private readonly claimDeliveriesTx;
  private readonly recordAttemptTx;

  constructor(db: Database.Database) {
    this.s = {
      insertChange: db.prepare<[number, string, number, number | null]>('INSERT INTO webhook_changes (subject, field, time, app_id) VALUES (?, ?, ?, ?)'),
      upsertSubscription: db.prepare<[number, string, string, string, string, number, number]>(
        `INSERT INTO webhook_subscriptions (app_id, object, callback_url, fields, verify_token, active, created_time) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (app_id, object) DO UPDATE SET callback_url = excluded.callback_url, fields = excluded.fields,
           verify_token = excluded.verify_token, active = excluded.active`,
      ),
      allSubscriptions: db.prepare<[], SubscriptionRow>('SELECT * FROM webhook_subscriptions ORDER BY app_id, object'),
      appSubscriptions: db.prepare<[number], SubscriptionRow>('SELECT * FROM webhook_subscriptions WHERE app_id = ? ORDER BY object'),
      deleteAll: db.prepare<[number]>('DELETE FROM webhook_subscriptions WHERE app_id = ?'),
      deleteOne: db.prepare<[number, string]>('DELETE FROM webhook_subscriptions WHERE app_id = ? AND object = ?'),
      setActive: db.prepare<[number, number, string]>('UPDATE webhook_subscriptions SET active = ? WHERE app_id = ? AND object = ?'),
      freeChanges: db.prepare<[number, number], ChangeRow>(
        'SELECT id, subject, field, time, app_id, lease_until FROM webhook_changes WHERE lease_until <= ? ORDER BY id LIMIT ?',
      ),
      leaseChange: db.prepare<[number, number]>('UPDATE webhook_changes SET lease_until = ? WHERE id = ?'),
      heldChange: db.prepare<[number, number], { id: number }>('SELECT id FROM webhook_changes WHERE id = ? AND lease_until = ?'),
      deleteChange: db.prepare<[number]>('DELETE FROM webhook_changes WHERE id = ?'),
      releaseHeldChange: db.prepare<[number, number]>('UPDATE webhook_changes SET lease_until = 0 WHERE id = ? AND lease_until = ?'),
      insertDelivery: db.prepare<[number, string, string, string, number, number]>(
        `INSERT INTO webhook_deliveries (app_id, object, callback_url, body, entry_count, created_time, status, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', 0)`,
      ),
      dueDeliveries: db.prepare<[number, number, number], DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until <= ? ORDER BY next_attempt_at, id LIMIT ?`,
      ),
      leaseDelivery: db.prepare<[number, number]>('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?'),
      selectDelivery: db.prepare<[number], DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`),
      updateDelivery: db.prepare<[string, number, string, number, number | null, number]>(
        `UPDATE webhook_deliveries SET status = ?, attempt_count = attempt_count + ?, attempts = ?, next_attempt_at = ?,
           failing_since = ?, lease_until = 0 WHERE id = ?`,
      ),
      listDeliveries: db.prepare<{ app: number | null; status: string | null; before: number | null; limit: number }, DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE (:app IS NULL OR app_id = :app) AND (:status IS NULL OR status = :status) AND (:before IS NULL OR id < :before)
         ORDER BY id DESC LIMIT :limit`,
      ),
      redeliver: db.prepare<[number]>(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = 0, failing_since = NULL, lease_until = 0 WHERE id = ?`,
      ),
    };
    this.claimChangesTx = db.transaction((limit: number, now: number, leaseSeconds: number) => {
      const rows = this.s.freeChanges.all(now, limit);
      for (const row of rows) {
        row.lease_until = now + leaseSeconds;
        this.s.leaseChange.run(row.lease_until, row.id);
      }
      return rows;
    });
    this.queueTx = db.transaction((deliveries: readonly NewDelivery[], doneChanges: readonly ClaimedChange[]): boolean => {
      // The transaction holds the write lock, so no claim can come between this check and the writes.
      if (!doneChanges.every((change) => this.s.heldChange.get(change.id, change.leaseUntil))) {
        for (const change of doneChanges) this.s.releaseHeldChange.run(change.id, change.leaseUntil);
        return false;
      }
      for (const change of doneChanges) this.s.deleteChange.run(change.id);
      for (const d of deliveries) {
        this.s.insertDelivery.run(d.appId, d.object, d.callbackUrl, d.body, d.entryCount, d.createdTime);
      }
      return true;
    });
    this.claimDeliveriesTx = db.transaction((limit: number, now: number, leaseSeconds: number) => {
      const rows = this.s.dueDeliveries.all(now, now, limit);
      for (const row of rows) this.s.leaseDelivery.run(now + leaseSeconds, row.id);
      return rows;
    });
    this.recordAttemptTx = db.transaction((id: number, attempt: DeliveryAttempt, outcome: AttemptOutcome, counted: number) => {
      const row = this.s.selectDelivery.get(id);
      if (!row) return;
      const attempts = [...decoded(row.attempts), attempt].slice(-KEPT_ATTEMPTS);
      this.s.updateDelivery.run(outcome.status, counted, JSON.stringify(attempts), outcome.nextAttemptAt, outcome.failingSince, id);
    });
  }

  /** The outbox op of a write batch, run inside the batch's transaction. */
  recordChange(subject: ObjectId, field: string, time: number, appId: ObjectId | null): void {
    this.s.insertChange.run(subject, field, time, appId);
  }

  async saveSubscription(sub: SubscriptionRecord): Promise<void> {
    this.s.upsertSubscription.run(sub.appId, sub.object, sub.callbackUrl, JSON.stringify(sub.fields), sub.verifyToken, sub.active ? 1 : 0, sub.createdTime);
  }

  async listSubscriptions(appId?: ObjectId): Promise<SubscriptionRecord[]> {
    const rows = appId === undefined ? this.s.allSubscriptions.all() : this.s.appSubscriptions.all(appId);
    return rows.map(toSubscription);
  }

  async deleteSubscriptions(appId: ObjectId, object?: string): Promise<number> {
    return (object === undefined ? this.s.deleteAll.run(appId) : this.s.deleteOne.run(appId, object)).changes;
  }

  async setSubscriptionActive(appId: ObjectId, object: string, active: boolean): Promise<void> {
    this.s.setActive.run(active ? 1 : 0, appId, object);
  }

  async claimChanges(limit: number, now: number, leaseSeconds: number): Promise<ChangeRecord[]> {
    return this.claimChangesTx.immediate(limit, now, leaseSeconds).map(toChange);
  }

  async queueDeliveries(deliveries: readonly NewDelivery[], doneChanges: readonly ClaimedChange[]): Promise<boolean> {
    return this.queueTx.immediate(deliveries, doneChanges);
  }

  async claimDeliveries(limit: number, now: number, leaseSeconds: number): Promise<DeliveryRecord[]> {
    return this.claimDeliveriesTx.immediate(limit, now, leaseSeconds).map(toDelivery);
  }

  async recordAttempt(id: number, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void> {
    this.recordAttemptTx.immediate(id, attempt, outcome, 1);
  }

  async listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    const rows = this.s.listDeliveries.all({ app: filter.appId ?? null, status: filter.status ?? null, before: filter.before ?? null, limit: filter.limit });
    return rows.map(toDelivery);
  }

  async getDelivery(id: number): Promise<DeliveryRecord | undefined> {
    const row = this.s.selectDelivery.get(id);
    return row && toDelivery(row);
  }

  async redeliver(id: number): Promise<boolean> {
    return this.s.redeliver.run(id).changes > 0;
  }
}
