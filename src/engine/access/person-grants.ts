import { grantedScopes } from '../../auth/grants.js';
import type { ReadContext } from '../request/context.js';
import { grantCacheOf, MAX_GRANTS_READ_WHOLE, type GrantCache } from './grant-cache.js';

/**
 * The permissions each of these people granted the viewer's app, as this request knows them. Each
 * person is asked about once: in one store call for all those not known yet, or in none when a
 * page that listed them, or what they wrote, brought the answer along, or when an earlier read
 * under the same auth version did (grant-cache.ts). Whether they use the app at all
 * (public_profile) and what their objects let it read both come from here.
 */
export async function grantedScopesOf(context: ReadContext, people: Iterable<number>): Promise<Map<number, ReadonlySet<string>>> {
  const asked = [...new Set(people)];
  const known = context.grantedScopes;
  let missing = asked.filter((person) => !known.has(person));
  const appId = context.viewer.app.id;
  const shared = sharedCache(context);
  countGrantChecks(context, asked.length);
  if (shared !== undefined && missing.length > 0) {
    for (const [person, scopes] of shared.known(context.authVersion!, appId, missing)) known.set(person, scopes);
    missing = missing.filter((person) => !known.has(person));
  }
  if (missing.length > 0) {
    const batch = context.store.getGrants(appId, missing).then((grants) => {
      const read = new Map(missing.map((person) => [person, grantedScopes(grants.get(person))] as const));
      shared?.remember(context.authVersion!, appId, read);
      return read;
    });
    // A failed read fails the request that made it; nothing else reads this memory.
    batch.catch(() => undefined);
    for (const person of missing) known.set(person, batch.then((read) => read.get(person)!));
  }
  // Waited for at most once, and not at all when every answer is known: a page of 25 people
  // then takes no 25 turns of the event loop.
  const held = asked.map((person) => known.get(person)!);
  const scopes = held.some((value) => value instanceof Promise) ? await Promise.all(held.map((value) => Promise.resolve(value))) : (held as ReadonlyArray<ReadonlySet<string>>);
  return new Map(asked.map((person, index) => [person, scopes[index]!]));
}

/**
 * Remembers permissions a read brought along (a page of people or of what they wrote), for this
 * request's later checks. People already known under the request's auth version keep the set
 * known for them: a page read again builds no new sets for the same people.
 */
export function rememberGrantedScopes(context: ReadContext, granted: ReadonlyMap<number, readonly string[]>): void {
  const shared = sharedCache(context);
  const appId = context.viewer.app.id;
  const unknown = [...granted.keys()].filter((person) => !context.grantedScopes.has(person));
  const known = shared?.known(context.authVersion!, appId, unknown);
  const fresh = new Map<number, ReadonlySet<string>>();
  for (const person of unknown) {
    let set = known?.get(person);
    if (set === undefined) {
      set = new Set(granted.get(person));
      fresh.set(person, set);
    }
    context.grantedScopes.set(person, set);
  }
  if (fresh.size > 0) shared?.remember(context.authVersion!, appId, fresh);
}

/**
 * Whether this request can tell what a person granted the viewer's app without asking the store:
 * a page read then need not bring those grants along (grantedScopesOf finds them, or asks).
 */
export function grantsKnownTo(context: ReadContext): (person: number) => boolean {
  const shared = sharedCache(context);
  const appId = context.viewer.app.id;
  const version = context.authVersion!;
  return (person) => context.grantedScopes.has(person) || (shared !== undefined && shared.has(version, appId, person));
}

/**
 * Whether this request knows what everyone granted the viewer's app: pages then bring no one's
 * grants along, and a node by id comes without its person's.
 */
export function allGrantsKnown(context: ReadContext): boolean {
  return sharedCache(context)?.hasWhole(context.authVersion!, context.viewer.app.id) === true;
}

/**
 * Counts the people (or their objects) whose grants a request needed: checked here, or wanted
 * along with a page or with nodes read by id, whether or not the store had to read them. Once
 * enough were under one auth version, reads the app's grants whole into the shared cache. No
 * request waits for that read: the requests after it find everyone known. If it fails, or the
 * app holds too many grants, grants go on being read person by person.
 */
export function countGrantChecks(context: ReadContext, people: number): void {
  const shared = sharedCache(context);
  if (shared?.countChecks(context.authVersion!, context.viewer.app.id, people)) readWholeGrants(context, shared).catch(() => undefined);
}

async function readWholeGrants(context: ReadContext, shared: GrantCache): Promise<void> {
  const appId = context.viewer.app.id;
  const grants = await context.store.getAppGrants(appId, MAX_GRANTS_READ_WHOLE);
  if (grants === undefined) return;
  shared.rememberWhole(context.authVersion!, appId, new Map([...grants].map(([person, granted]) => [person, grantedScopes(granted)] as const)));
}

/** Only a read that writes nothing trusts its auth version, and so may use what other requests read under it. */
function sharedCache(context: ReadContext): GrantCache | undefined {
  return context.authVersion === undefined ? undefined : grantCacheOf(context.store);
}
