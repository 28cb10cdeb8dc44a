import type { Grant, StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';

/** Answers "did this node's owner give the viewer's app this permission?" for one batch of nodes. */
export type AccessCheck = (object: StoredObject, scope: string | undefined) => boolean;

const ALWAYS = 'public_profile';

/** The person whose permission a node's fields need: a user for themselves, an owner for their things. */
function ownerOf(object: StoredObject): number | null {
  return object.type === 'user' ? object.id : object.owner;
}

/** Loads the grants of every owner in the batch (one store call) unless no scope needs them. */
export async function loadAccess(
  context: ReadContext,
  objects: readonly StoredObject[],
  scopes: readonly (string | undefined)[],
): Promise<AccessCheck> {
  const viewer = context.viewer;
  const needed = scopes.some((scope) => scope !== undefined && scope !== ALWAYS);
  const others = new Set<number>();
  if (needed) {
    for (const object of objects) {
      const owner = ownerOf(object);
      if (owner !== null && owner !== viewer.userId) others.add(owner);
    }
  }
  const grants = others.size > 0 ? await context.store.getGrants(viewer.app.id, [...others]) : new Map<number, Grant[]>();
  const granted = new Map<number, Set<string>>();
  for (const [userId, list] of grants) {
    granted.set(userId, new Set(list.filter((grant) => grant.status === 'granted').map((grant) => grant.scope)));
  }
  return (object, scope) => {
    if (scope === undefined || scope === ALWAYS) return true;
    const owner = ownerOf(object);
    if (owner === null) return true;
    if (owner === viewer.userId) return viewer.scopes.has(scope);
    return granted.get(owner)?.has(scope) ?? false;
  };
}
