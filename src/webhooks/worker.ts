import type { Clock } from '../clock/clock.js';
import { Repeating } from '../clock/repeating.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import type { DeliveryAttempt, DeliveryRecord, SubscriptionRecord } from '../store/webhook-store.js';
import { CALLBACK_HEADERS } from './callback-url.js';
import { notificationsFor } from './notifications.js';
import { retryDelay, type WebhookSettings } from './settings.js';
import { signatureHeaders } from './signing.js';
import { describeSystemError } from '../errors.js';

/** Changes taken per claim: enough for full POSTs of MAX_ENTRIES. */
const CHANGE_CLAIM_SIZE = 1000;
/** Deliveries taken per claim. */
const CLAIM_SIZE = 200;
/** Callbacks called at once by one process. */
const PARALLEL_SENDS = 16;
/** How much of a callback's answer a delivery keeps. */
const KEPT_ANSWER_CHARS = 500;

/**
 * The delivery worker of one process. Every window it turns the outbox's changes into
 * notifications and sends those that are due, retrying failures on the schedule of the settings
 * by the server's clock. Several processes on one database share the work: each row is leased
 * by one of them at a time (see WebhookStore).
 */
export class DeliveryWorker {
  private readonly repeating: Repeating;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    /** Takes what other processes changed (the clock) before each round. */
    private readonly sync: () => Promise<void> = async () => {},
    onError: (error: unknown) => void = () => {},
  ) {
    this.repeating = new Repeating(() => this.round(), settings.windowMs, onError);
  }

  start(): void {
    this.repeating.start();
  }

  /** Stops after the round under way, if any. */
  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /** One round: every waiting change becomes a notification, then every due delivery is sent. */
  async round(): Promise<void> {
    await this.sync();
    for (;;) {
      const now = this.clock.now();
      const changes = await this.store.webhooks.claimChanges(CHANGE_CLAIM_SIZE, now, this.settings.leaseSeconds);
      if (changes.length === 0) break;
      const deliveries = await notificationsFor(this.store, changes, now);
      // Not queued when a lease ran out mid-way and another process took a change over: the changes
      // still held were let go, and the next claim takes them again.
      const queued = await this.store.webhooks.queueDeliveries(deliveries, changes);
      if ((queued && changes.length < CHANGE_CLAIM_SIZE) || this.repeating.stopped) break;
    }
    for (;;) {
      const due = await this.store.webhooks.claimDeliveries(CLAIM_SIZE, this.clock.now(), this.settings.leaseSeconds);
      if (due.length === 0) break;
      await this.sendAll(due);
      if (due.length < CLAIM_SIZE || this.repeating.stopped) break;
    }
  }

  private async sendAll(due: readonly DeliveryRecord[]): Promise<void> {
    const apps = await this.store.getApps([...new Set(due.map((delivery) => delivery.appId))]);
    const subscriptions = new Map((await this.store.webhooks.listSubscriptions()).map((sub) => [`${sub.appId}:${sub.object}`, sub]));
    let next = 0;
    const lane = async () => {
      while (next < due.length) {
        const delivery = due[next++]!;
        await this.attempt(delivery, apps.get(delivery.appId), subscriptions.get(`${delivery.appId}:${delivery.object}`));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, due.length) }, lane));
  }

  private async attempt(delivery: DeliveryRecord, app: AppRecord | undefined, sub: SubscriptionRecord | undefined): Promise<void> {
    const now = this.clock.now();
    if (!app || !sub || !sub.active) {
      // The app, or its subscription, went away: nobody is left to tell.
      const answer = !app ? 'The app was deleted' : !sub ? 'The subscription was removed' : 'The subscription is inactive';
      await this.store.webhooks.recordAttempt(delivery.id, { time: now, answer }, { status: 'failed', nextAttemptAt: now, failingSince: delivery.failingSince });
      return;
    }
    const attempt = await send(delivery, app.secret, this.settings.timeoutMs, now);
    if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) {
      await this.store.webhooks.recordAttempt(delivery.id, attempt, { status: 'delivered', nextAttemptAt: now, failingSince: null });
      return;
    }
    const failingSince = delivery.failingSince ?? now;
    if (now - failingSince >= this.settings.retryFor) {
      await this.store.webhooks.recordAttempt(delivery.id, attempt, { status: 'failed', nextAttemptAt: now, failingSince });
      await this.store.webhooks.setSubscriptionActive(delivery.appId, delivery.object, false);
      return;
    }
    const nextAttemptAt = now + retryDelay(this.settings, delivery.attemptCount + 1);
    await this.store.webhooks.recordAttempt(delivery.id, attempt, { status: 'pending', nextAttemptAt, failingSince });
  }
}

/** One POST of a delivery to its callback, with its signatures and its id for deduplication. */
async function send(delivery: DeliveryRecord, appSecret: string, timeoutMs: number, now: number): Promise<DeliveryAttempt> {
  try {
    const response = await fetch(delivery.callbackUrl, {
      method: 'POST',
      headers: {
        ...CALLBACK_HEADERS,
        'content-type': 'application/json',
        'x-loom-delivery': String(delivery.id),
        ...signatureHeaders(delivery.body, appSecret),
      },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { time: now, status: response.status, answer: text.slice(0, KEPT_ANSWER_CHARS) };
  } catch (error) {
    return { time: now, answer: `No answer from ${delivery.callbackUrl}: ${describeSystemError(error)}`.slice(0, KEPT_ANSWER_CHARS) };
  }
}
