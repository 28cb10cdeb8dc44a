import { scopedIdsFor } from '../auth/viewer.js';
import type { Store } from '../store/store.js';
import type { ChangeRecord, NewDelivery, SubscriptionRecord } from '../store/webhook-store.js';
import { asciiJson } from './signing.js';

/** The association from a page to each app it installed (`POST /<page>/subscribed_apps`). */
export const PAGE_INSTALLS = 'subscribed_apps';

/** The most entries one POST carries; more changes in one window go out as several POSTs. */
const MAX_ENTRIES = 500;

export interface Entry {
  uid: string;
  id: string;
  time: number;
  changed_fields: string[];
}

/**
 * Turns outbox changes into deliveries: for each active subscription whose fields include the
 * change's field and whose app the person (or page) installed, an entry with the app's own id
 * for them; one body per (app, object), signed later with the app's secret. Store calls are a
 * fixed few per call, whatever the number of changes: objects, apps, then grants per app.
 */
export async function notificationsFor(store: Store, changes: readonly ChangeRecord[], now: number): Promise<NewDelivery[]> {
  const subscriptions = (await store.webhooks.listSubscriptions()).filter((sub) => sub.active);
  if (subscriptions.length === 0 || changes.length === 0) return [];
  const subjects = await store.getObjects([...new Set(changes.map((change) => change.subject))]);
  const appIds = [...new Set(subscriptions.map((sub) => sub.appId))];
  const apps = await store.getApps(appIds);
  const userIds = [...subjects.values()].filter((object) => object.type === 'user').map((object) => object.id);
  const pageIds = [...subjects.values()].filter((object) => object.type === 'page').map((object) => object.id);
  // Who installed which app: a person by granting it anything, a page through subscribed_apps.
  const installed = new Set<string>();
  for (const appId of appIds) {
    if (userIds.length === 0) break;
    const grants = await store.getGrants(appId, userIds);
    for (const [userId, list] of grants) {
      if (list.some((grant) => grant.status === 'granted')) installed.add(`${appId}:${userId}`);
    }
  }
  if (pageIds.length > 0 && subscriptions.some((sub) => sub.object === 'page')) {
    const pairs = appIds.flatMap((appId) => pageIds.map((pageId) => [pageId, appId] as const));
    for (const pair of await store.getExisting(PAGE_INSTALLS, pairs)) {
      const [pageId, appId] = pair.split(':');
      installed.add(`${appId}:${pageId}`);
    }
  }

  const groups = new Map<string, { sub: SubscriptionRecord; entries: Entry[] }>();
  for (const change of changes) {
    const subject = subjects.get(change.subject);
    if (!subject) continue;
    for (const sub of subscriptions) {
      if (!concerns(sub, subject.type, change) || !installed.has(`${sub.appId}:${subject.id}`)) continue;
      const app = apps.get(sub.appId);
      if (!app) continue;
      const id = subject.type === 'user' ? scopedIdsFor(app).scope(subject.id) : String(subject.id);
      const key = `${sub.appId}:${sub.object}`;
      const group = groups.get(key) ?? { sub, entries: [] };
      group.entries.push({ uid: id, id, time: change.time, changed_fields: [change.field] });
      groups.set(key, group);
    }
  }
  const deliveries: NewDelivery[] = [];
  for (const { sub, entries } of groups.values()) {
    for (let start = 0; start < entries.length; start += MAX_ENTRIES) {
      const chunk = entries.slice(start, start + MAX_ENTRIES);
      deliveries.push(deliveryOf(sub, chunk, now));
    }
  }
  return deliveries;
}

/** One notification POST for a subscription: the exact body every attempt sends. */
export function deliveryOf(sub: Pick<SubscriptionRecord, 'appId' | 'object' | 'callbackUrl'>, entries: readonly Entry[], now: number): NewDelivery {
  return {
    appId: sub.appId,
    object: sub.object,
    callbackUrl: sub.callbackUrl,
    body: asciiJson({ object: sub.object, entry: entries }),
    entryCount: entries.length,
    createdTime: now,
  };
}

/** Whether a change of `field` on an object of `type` is news to this subscription. */
function concerns(sub: SubscriptionRecord, type: string, change: ChangeRecord): boolean {
  if (change.appId !== null) return sub.object === 'permissions' && sub.appId === change.appId && type === 'user' && sub.fields.includes(change.field);
  return sub.object === type && sub.fields.includes(change.field);
}
