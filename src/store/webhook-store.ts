import type { ObjectId } from '../ids.js';

/**
 * The store's side of webhooks: subscriptions, the outbox of changes (written by the `recordChange`
 * op in the same transaction as the change itself) and the queue of deliveries. Claiming takes a
 * lease on rows so that, with several processes on one database, each row is worked on by one of
 * them at a time; a lease that runs out (its process died) lets another take the row again.
 */

export interface SubscriptionRecord {
  appId: ObjectId;
  /** 'user', 'page' or 'permissions'. */
  object: string;
  callbackUrl: string;
  fields: string[];
  verifyToken: string;
  active: boolean;
  createdTime: number;
}

/** One change waiting in the outbox: `field` of `subject` changed at `time`. */
export interface ChangeRecord {
  id: number;
  subject: ObjectId;
  field: string;
  time: number;
  /** Set when the change concerns one app only (a permission granted to it). */
  appId: ObjectId | null;
  /**
   * When the claim that took the change lets go of it. It also tells claims apart: another claim
   * can take the row only once this time has passed, and then sets a later one.
   */
  leaseUntil: number;
}

/** A change as its claim took it: what `queueDeliveries` checks is still held. */
export type ClaimedChange = Pick<ChangeRecord, 'id' | 'leaseUntil'>;

export interface NewDelivery {
  appId: ObjectId;
  object: string;
  callbackUrl: string;
  /** The exact bytes sent (and signed) on every attempt. */
  body: string;
  entryCount: number;
  createdTime: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One try at a delivery and what the callback answered. */
export interface DeliveryAttempt {
  time: number;
  /** The callback's HTTP status; absent when no answer came. */
  status?: number;
  /** The start of the callback's answer, or why there was none. */
  answer: string;
}

export interface DeliveryRecord extends NewDelivery {
  id: number;
  status: DeliveryStatus;
  attemptCount: number;
  /** The most recent attempts, oldest first. */
  attempts: DeliveryAttempt[];
  nextAttemptAt: number;
  /** When the current run of failures began; null once delivered or before any failure. */
  failingSince: number | null;
}

/** What an attempt leaves the delivery as. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number;
  failingSince: number | null;
}

/** The most attempts a delivery keeps a record of. */
export const KEPT_ATTEMPTS = 10;

export interface DeliveryFilter {
  appId?: ObjectId;
  status?: DeliveryStatus;
  /** Only deliveries with a smaller id (the next page, newest first). */
  before?: number;
  limit: number;
}

export interface WebhookStore {
  /** Adds or replaces the app's subscription to its object. */
  saveSubscription(subscription: SubscriptionRecord): Promise<void>;
  /** Every subscription, or one app's. */
  listSubscriptions(appId?: ObjectId): Promise<SubscriptionRecord[]>;
  /** Removes the app's subscription to one object, or all of them; answers how many went. */
  deleteSubscriptions(appId: ObjectId, object?: string): Promise<number>;
  setSubscriptionActive(appId: ObjectId, object: string, active: boolean): Promise<void>;

  /** Up to `limit` changes nobody holds, oldest first, each leased until `now + leaseSeconds`. */
  claimChanges(limit: number, now: number, leaseSeconds: number): Promise<ChangeRecord[]>;
  /**
   * Queues the deliveries, due at once, and removes the changes they came from, in one transaction,
   * when the claims that took those changes still hold every one of them. When a lease ran out and
   * another process claimed a change since, that process makes its notification: nothing is queued
   * here, the changes still held are let go for the next claim, and the answer is false.
   */
  queueDeliveries(deliveries: readonly NewDelivery[], doneChanges: readonly ClaimedChange[]): Promise<boolean>;
  /** Up to `limit` pending deliveries due by `now` that nobody holds, each leased until `now + leaseSeconds`. */
  claimDeliveries(limit: number, now: number, leaseSeconds: number): Promise<DeliveryRecord[]>;
  /** Records an attempt (keeping the last KEPT_ATTEMPTS) and its outcome, and releases the lease. */
  recordAttempt(id: number, attempt: DeliveryAttempt, outcome: AttemptOutcome): Promise<void>;
  /** Newest first. */
  listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]>;
  getDelivery(id: number): Promise<DeliveryRecord | undefined>;
  /**
   * Makes a delivery pending again and due at once, as a new one is, whatever any process's clock
   * says or is later set to; answers false when there is no such delivery.
   */
  redeliver(id: number): Promise<boolean>;
}
