import { grantedScopes } from '../auth/grants.js';
import type { ReadContext } from './context.js';

/**
 * The permissions each of these people granted the viewer's app, as this request knows them. Each
 * person is asked about once: in one store call for all those not known yet, or in none when a
 * page that listed them, or what they wrote, brought the answer along. Whether they use the app
 * at all (public_profile) and what their objects let it read both come from here.
 */
export async function grantedScopesOf(context: ReadContext, people: Iterable<number>): Promise<Map<number, ReadonlySet<string>>> {
  const asked = [...new Set(people)];
  const known = context.grantedScopes;
  const missing = asked.filter((person) => !known.has(person));
  if (missing.length > 0) {
    const batch = context.store.getGrants(context.viewer.app.id, missing);
    // A failed read fails the request that made it; nothing else reads this memory.
    batch.catch(() => undefined);
    for (const person of missing) known.set(person, batch.then((grants) => grantedScopes(grants.get(person))));
  }
  const granted = new Map<number, ReadonlySet<string>>();
  for (const person of asked) granted.set(person, await known.get(person)!);
  return granted;
}

/** Remembers permissions a read brought along (a page of people or of what they wrote), for this request's later checks. */
export function rememberGrantedScopes(context: ReadContext, granted: ReadonlyMap<number, readonly string[]>): void {
  for (const [person, scopes] of granted) {
    if (!context.grantedScopes.has(person)) context.grantedScopes.set(person, Promise.resolve(new Set(scopes)));
  }
}
