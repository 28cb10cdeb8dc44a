import { ALWAYS_GRANTED } from '../schema/permissions.js';
import type { Viewer } from '../auth/viewer.js';
import { GraphError } from '../errors.js';
import type { EdgeDef } from '../schema/definition.js';
import { readersOf } from '../schema/permissions.js';
import type { StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';
import { nodeOwner } from './access-rules.js';
import { grantedScopesOf } from './person-grants.js';

/** Answers "did this node's owner give the viewer's app this permission?" for one batch of nodes. */
export type AccessCheck = (object: StoredObject, scope: string | undefined) => boolean;


/** Loads the grants of every owner in the batch (at most one store call) unless no scope needs them. */
export async function loadAccess(
  context: ReadContext,
  objects: readonly StoredObject[],
  scopes: readonly (string | undefined)[],
): Promise<AccessCheck> {
  const viewer = context.viewer;
  const needed = scopes.some((scope) => scope !== undefined && scope !== ALWAYS_GRANTED);
  const others = new Set<number>();
  if (needed) {
    for (const object of objects) {
      const owner = nodeOwner(context, object);
      if (owner !== null && owner !== viewer.userId) others.add(owner);
    }
  }
  const granted = others.size > 0 ? await grantedScopesOf(context, others) : new Map<number, ReadonlySet<string>>();
  // In some versions another permission reads what this one does (read_stream what user_posts does).
  const readers = (scope: string) => readersOf(scope, context.version);
  return (object, scope) => {
    if (scope === undefined || scope === ALWAYS_GRANTED) return true;
    const owner = nodeOwner(context, object);
    if (owner === null) return true;
    const held = owner === viewer.userId ? viewer.scopes : granted.get(owner);
    return held !== undefined && readers(scope).some((reader) => held.has(reader));
  };
}

/** Whether the viewer is among the readers the edge declares: anyone, the person themselves, or the node's own app. */
export function isReader(viewer: Viewer, edge: EdgeDef, object: StoredObject): boolean {
  switch (edge.readers) {
    case undefined:
      return true;
    case 'self':
      return viewer.userId === object.id;
    case 'app':
      return viewer.kind === 'app' && viewer.app.id === object.id;
  }
}

/** What only an app may do to itself (manage its test users): (#15) for user tokens, (#200) for another app's. */
export function requireOwnApp(viewer: Viewer, appId: number): void {
  if (viewer.kind !== 'app') throw GraphError.appTokenRequired();
  if (viewer.app.id !== appId) throw GraphError.permission('Only the app itself, with its own app token, may do this');
}
