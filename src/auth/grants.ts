import { GraphError } from '../errors.js';
import type { Permissions } from '../schema/permissions.js';
import type { Store } from '../store/store.js';
import type { Grant, GrantStatus } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';

export function grantedScopes(grants: readonly Grant[] | undefined): Set<string> {
  return new Set((grants ?? []).filter((grant) => grant.status === 'granted').map((grant) => grant.scope));
}

/** A person's permissions as `/me/permissions` lists them: the always granted one (public_profile) first, then by name. */
export function orderPermissions(permissions: Permissions, grants: readonly Grant[]): Grant[] {
  const rank = (grant: Grant) => (grant.scope === permissions.alwaysGranted ? 0 : 1);
  return [...grants].sort((a, b) => rank(a) - rank(b) || (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0));
}

/**
 * Records a person's answer in the sign-in dialog. Earlier answers about other permissions stay;
 * the schema's always granted permission is granted. Returns every permission the app now holds
 * for the person.
 */
export async function recordConsent(
  store: Store,
  permissions: Permissions,
  appId: ObjectId,
  userId: ObjectId,
  answer: { granted: readonly string[]; declined: readonly string[] },
): Promise<string[]> {
  const changes = new Map<string, GrantStatus>();
  for (const scope of answer.declined) changes.set(scope, 'declined');
  for (const scope of [permissions.alwaysGranted, ...answer.granted]) changes.set(scope, 'granted');
  // One store call: answers given at the same time in two dialogs both stay.
  const grants = await store.updateGrants(appId, userId, [...changes].map(([scope, status]) => ({ scope, status })));
  return orderPermissions(permissions, grants)
    .filter((grant) => grant.status === 'granted')
    .map((grant) => grant.scope);
}

/** `DELETE /me/permissions/<p>`: the permission becomes declined; tokens lose it at once. A permission never asked for stays unasked. */
export async function revokePermission(store: Store, permissions: Permissions, appId: ObjectId, userId: ObjectId, scope: string): Promise<void> {
  if (scope === permissions.alwaysGranted) {
    throw GraphError.invalidParameter(`${scope} cannot be revoked on its own; DELETE /me/permissions removes the app`);
  }
  await store.updateGrants(appId, userId, [{ scope, status: 'declined' }], { onlyExisting: true });
}

/** `DELETE /me/permissions`: the person removes the app; every token they gave it stops working. */
export async function deauthorize(store: Store, appId: ObjectId, userId: ObjectId, now: number): Promise<void> {
  await store.revokeTokens(appId, userId, now);
  await store.setGrants(appId, [{ userId, grants: [] }]);
}
