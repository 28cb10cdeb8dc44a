import { recordConsent } from '../auth/grants.js';
import { issueUserToken, type IssuedToken } from '../auth/tokens.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { sharedClock } from '../control/control-plane.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';

/** A token for the person as if they had just approved the app for these scopes in the dialog. */
export async function issueToken(
  store: Store,
  app: AppRecord,
  userId: number,
  scopes: readonly string[],
  expiresIn: number,
): Promise<IssuedToken & { scopedUserId: string }> {
  await recordConsent(store, app.id, userId, { granted: scopes, declined: [] });
  const issued = await issueUserToken(store, {
    appId: app.id,
    userId,
    scopes,
    expiresIn,
    now: (await sharedClock(store)).now(),
  });
  return { ...issued, scopedUserId: scopedIdsFor(app).scope(userId) };
}
