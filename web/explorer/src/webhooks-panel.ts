/**
 * The Webhooks panel: the server's recent notification deliveries from the control API, each with
 * its body as sent, its signature headers, and every attempt with the callback's answer.
 */
import { getJson } from './api.js';
import { byId, h } from './dom.js';
import { isRecord } from './guards.js';

interface Attempt {
  time: string;
  status?: number;
  answer: string;
}

interface Delivery {
  id: string;
  app_id: string;
  object: string;
  callback_url: string;
  status: string;
  entry_count: number;
  attempt_count: number;
  next_attempt_time?: string;
  attempts: Attempt[];
  body: string;
  headers?: Record<string, string>;
}

export class WebhooksPanel {
  private readonly list = byId('webhook-deliveries', HTMLOListElement);
  private readonly empty = byId('webhooks-empty', HTMLElement);

  constructor() {
    byId('refresh-webhooks', HTMLButtonElement).addEventListener('click', () => void this.refresh());
  }

  async refresh(): Promise<void> {
    const answer = await getJson('/_loom/webhooks/deliveries?limit=20');
    const deliveries = isRecord(answer) && Array.isArray(answer.data) ? (answer.data as Delivery[]) : undefined;
    if (!deliveries) {
      this.show([], 'The control API did not answer: it serves this machine only, or needs the admin key.');
      return;
    }
    this.show(deliveries, 'No notifications yet. Subscribe an app with POST /<app-id>/subscriptions and its app token.');
  }

  private show(deliveries: Delivery[], emptyText: string): void {
    this.empty.textContent = emptyText;
    this.empty.hidden = deliveries.length > 0;
    this.list.replaceChildren(...deliveries.map((delivery) => h('li', {}, this.item(delivery))));
  }

  private item(delivery: Delivery): HTMLElement {
    const headers = Object.entries(delivery.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
    return h(
      'details',
      { class: `delivery ${delivery.status}` },
      h('summary', {}, `#${delivery.id} ${delivery.status} · ${delivery.object} · ${delivery.entry_count} entries · ${delivery.attempt_count} attempts`),
      h('p', { class: 'note' }, `App ${delivery.app_id} → ${delivery.callback_url}`),
      delivery.next_attempt_time ? h('p', { class: 'note' }, `Next attempt ${delivery.next_attempt_time}`) : null,
      h('pre', { class: 'raw delivery-headers' }, [`x-loom-delivery: ${delivery.id}`, ...headers].join('\n')),
      h('pre', { class: 'raw delivery-body' }, delivery.body),
      h(
        'ol',
        { class: 'attempts' },
        ...delivery.attempts.map((attempt) => h('li', {}, `${attempt.time}: ${attempt.status ?? 'no answer'} ${attempt.answer}`)),
      ),
    );
  }
}
