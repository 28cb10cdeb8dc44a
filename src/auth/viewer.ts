import { timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { AppRecord, ObjectId, Store } from '../store/store.js';
import { AppScopedIds } from './app-scoped-ids.js';
import { hashToken } from './tokens.js';

/** Who is asking: the app the token belongs to and, for user tokens, the person. */
export interface Viewer {
  kind: 'user' | 'app';
  app: AppRecord;
  userId: ObjectId | null;
  /** Scopes the token carries (empty for app tokens). */
  scopes: ReadonlySet<string>;
  ids: AppScopedIds;
}

const idsByKey = new Map<string, AppScopedIds>();

export function scopedIdsFor(app: AppRecord): AppScopedIds {
  let ids = idsByKey.get(app.idKey);
  if (!ids) {
    ids = new AppScopedIds(app.idKey);
    idsByKey.set(app.idKey, ids);
  }
  return ids;
}

/** Turns an access token into a Viewer, or fails with the Graph error a client expects. */
export async function resolveViewer(store: Store, token: string, now: number): Promise<Viewer> {
  const appToken = /^(\d+)\|(.+)$/.exec(token);
  if (appToken) {
    const app = (await store.getApps([Number(appToken[1])])).get(Number(appToken[1]));
    if (!app || !sameSecret(app.secret, appToken[2]!)) throw GraphError.invalidToken();
    return { kind: 'app', app, userId: null, scopes: new Set(), ids: scopedIdsFor(app) };
  }
  const record = await store.findToken(hashToken(token));
  if (!record) throw GraphError.invalidToken();
  if (record.expiresAt !== 0 && record.expiresAt <= now) {
    throw GraphError.expiredToken(new Date(record.expiresAt * 1000), new Date(now * 1000));
  }
  const app = (await store.getApps([record.appId])).get(record.appId);
  if (!app) throw GraphError.invalidToken();
  return {
    kind: record.kind,
    app,
    userId: record.userId,
    scopes: new Set(record.scopes),
    ids: scopedIdsFor(app),
  };
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
