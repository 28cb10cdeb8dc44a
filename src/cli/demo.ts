import { recordConsent } from '../auth/grants.js';
import { issueUserToken, type IssuedToken } from '../auth/tokens.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { sharedClock } from '../control/control-plane.js';
import type { Permissions } from '../schema/permissions.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';

/** A token for the person as if they had just approved the app for these scopes in the dialog of the schema's `permissions`. */
export async function issueToken(
  store: Store,
  permissions: Permissions,
  app: AppRecord,
  userId: number,
  scopes: readonly string[],
  expiresIn: number,
): Promise<IssuedToken & { scopedUserId: string }> {
  await recordConsent(store, permissions, app.id, userId, { granted: scopes, declined: [] });
  const issued = await issueUserToken(store, {
    appId: app.id,
    userId,
    scopes,
    expiresIn,
    now: (await sharedClock(store)).now(),
  });
  return { ...issued, scopedUserId: scopedIdsFor(app).scope(userId) };
}
