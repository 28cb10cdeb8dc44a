import type { ReadContext } from '../engine/request/context.js';
import { GraphError } from '../errors.js';
import type { Json } from '../ids.js';
import type { SubscriptionRecord } from '../store/webhook-store.js';
import { SUBSCRIBABLE_FIELDS } from './change-fields.js';
import { checkCallbackUrl, verifyCallback, type CallbackRules } from './callback-url.js';
import { PAGE_INSTALLS } from './notifications.js';

const SUCCESS = { success: true };
/** Longest verify_token kept; it comes back to the callback on every handshake. */
const MAX_VERIFY_TOKEN = 256;

/** `/<app>/subscriptions`, with the app token: what the app is subscribed to, listed, added to or removed. */
export async function answerSubscriptions(
  context: ReadContext,
  rules: CallbackRules,
  idText: string,
  method: 'get' | 'post' | 'delete',
  params: Record<string, string>,
): Promise<unknown> {
  const { viewer, store } = context;
  const appId = viewer.app.id;
  if (idText !== 'app' && idText !== String(appId)) throw GraphError.objectNotFound(idText, method);
  if (viewer.kind !== 'app') throw new GraphError(15, '(#15) This method must be called with an app access_token.');
  if (method === 'get') {
    const subscriptions = await store.webhooks.listSubscriptions(appId);
    return { data: subscriptions.map(describe) };
  }
  if (method === 'delete') {
    if (params.object !== undefined) objectOf(params.object);
    await store.webhooks.deleteSubscriptions(appId, params.object);
    return SUCCESS;
  }
  const object = objectOf(params.object);
  const fields = fieldsOf(object, params.fields);
  const url = await checkCallbackUrl(params.callback_url, rules);
  const verifyToken = params.verify_token ?? '';
  if (verifyToken.length > MAX_VERIFY_TOKEN) throw GraphError.invalidParameter(`verify_token is longer than ${MAX_VERIFY_TOKEN} characters`);
  await verifyCallback(url, verifyToken, rules.timeoutMs);
  // Subscribing again adds fields to those the object already has, as on the real service.
  const existing = (await store.webhooks.listSubscriptions(appId)).find((sub) => sub.object === object);
  await store.webhooks.saveSubscription({
    appId,
    object,
    callbackUrl: url.href,
    fields: [...new Set([...(existing?.fields ?? []), ...fields])],
    verifyToken,
    active: true,
    createdTime: existing?.createdTime ?? context.now,
  });
  return SUCCESS;
}

/**
 * `/<page>/subscribed_apps`: the app (the caller's) installed on a page, which then sends it its
 * changes of the fields the app subscribed to.
 */
export async function answerPageInstall(context: ReadContext, idText: string, method: 'get' | 'post' | 'delete'): Promise<unknown> {
  const { viewer, store } = context;
  const pageId = /^\d{1,15}$/.test(idText) ? Number(idText) : undefined;
  const page = pageId === undefined ? undefined : (await store.getObjects([pageId])).get(pageId);
  if (!page || page.type !== 'page') throw GraphError.objectNotFound(idText, method);
  const app = viewer.app;
  if (method === 'post') {
    await store.write([{ op: 'addAssoc', type: PAGE_INSTALLS, id1: page.id, id2: app.id, time: context.now }]);
    return SUCCESS;
  }
  if (method === 'delete') {
    await store.write([{ op: 'removeAssoc', type: PAGE_INSTALLS, id1: page.id, id2: app.id }]);
    return SUCCESS;
  }
  // Only the caller's own app is ever listed: no app learns which others a page uses.
  const installed = await store.getExisting(PAGE_INSTALLS, [[page.id, app.id]]);
  const name = (await store.getApps([app.id])).get(app.id)?.name ?? '';
  return { data: installed.size > 0 ? [{ id: String(app.id), name }] : [] };
}

function describe(sub: SubscriptionRecord): Json {
  return { object: sub.object, callback_url: sub.callbackUrl, fields: sub.fields, active: sub.active };
}

function objectOf(text: string | undefined): string {
  if (text === undefined || !Object.hasOwn(SUBSCRIBABLE_FIELDS, text)) throw GraphError.invalidParameter('Invalid parameter');
  return text;
}

function fieldsOf(object: string, text: string | undefined): string[] {
  const fields = (text ?? '').split(',').map((field) => field.trim()).filter((field) => field !== '');
  if (fields.length === 0 || fields.length > 100) throw GraphError.invalidParameter('Invalid parameter: fields must list 1 to 100 fields');
  const allowed = SUBSCRIBABLE_FIELDS[object]!;
  for (const field of fields) {
    const known = allowed === 'any' ? /^[a-z_]{1,64}$/.test(field) : allowed.has(field);
    if (!known) throw GraphError.invalidParameter(`Invalid parameter: ${field.slice(0, 64)} is not a field of ${object} one can subscribe to`);
  }
  return fields;
}
