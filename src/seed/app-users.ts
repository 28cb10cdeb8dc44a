/**
 * Which people use the demo app and what they granted it. About half of the people use it; the
 * demo user grants everything. Among the demo user's friends there are always both kinds, so
 * `me/friends` visibly lists fewer friends than its `total_count`.
 */
import type { Grant } from '../store/auth-store.js';
import { APP_USER_BASE_SCOPES, APP_USER_OPTIONAL_SCOPES, DEMO_SCOPES } from './demo-scopes.js';
import type { Random } from './random.js';

export function chooseAppUsers(random: Random, friends: readonly number[][]): boolean[] {
  const usesApp = friends.map((_, person) => person === 0 || random.chance(0.5));
  const demoFriends = friends[0] ?? [];
  if (demoFriends.length >= 2) {
    if (!demoFriends.some((friend) => usesApp[friend])) usesApp[demoFriends[0] as number] = true;
    if (demoFriends.every((friend) => usesApp[friend])) usesApp[demoFriends[1] as number] = false;
  }
  return usesApp;
}

/** The grants of someone who uses the app: the base scopes, some optional ones, a few declined. */
export function appUserGrants(random: Random, isDemoUser: boolean): Grant[] {
  if (isDemoUser) return DEMO_SCOPES.map((scope) => ({ scope, status: 'granted' }));
  const grants: Grant[] = APP_USER_BASE_SCOPES.map((scope) => ({ scope, status: 'granted' }));
  for (const scope of APP_USER_OPTIONAL_SCOPES) {
    if (random.chance(0.6)) grants.push({ scope, status: 'granted' });
    else if (random.chance(0.2)) grants.push({ scope, status: 'declined' });
  }
  return grants;
}
