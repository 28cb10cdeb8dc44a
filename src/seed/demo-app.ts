import type { AppRecord } from '../store/auth-store.js';
import type { StoredObject } from '../store/graph-store.js';
import type { Store } from '../store/store.js';

export interface Demo {
  app: AppRecord;
  user: StoredObject;
}

/** The demo app and user the seed recorded, if this database holds a demo graph. */
export async function findDemo(store: Store): Promise<Demo | undefined> {
  const appId = Number(await store.getSetting('demo.app_id'));
  const userId = Number(await store.getSetting('demo.user_id'));
  if (!appId || !userId) return undefined;
  const app = (await store.getApps([appId])).get(appId);
  const user = (await store.getObjects([userId])).get(userId);
  return app && user ? { app, user } : undefined;
}
