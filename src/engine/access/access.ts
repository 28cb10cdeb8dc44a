import type { Viewer } from '../../auth/viewer.js';
import { GraphError } from '../../errors.js';
import type { EdgeDef, NodeTypeDef } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import { nodeOwner } from './access-rules.js';
import { grantedScopesOf } from './person-grants.js';

/** A field or edge as access sees it: its name, and the permission its node's owner must have granted. */
export interface Readable {
  name: string;
  scope?: string;
}

/** What the viewer may read of each node of one batch. */
export interface AccessCheck {
  /** Whether the viewer may read this field or edge of the node. */
  readable(object: StoredObject, item: Readable): boolean;
  /** Whether the node's owner not having granted the item's permission is what keeps it closed. */
  lacksScope(object: StoredObject, item: Readable): boolean;
}

/**
 * Loads the grants of every owner in the batch (at most one store call) unless nothing needs
 * them: no item names a permission, and none lies beyond the public profile that is all a
 * person who never used the app shows of themselves (NodeTypeDef.nonUsers).
 */
export async function loadAccess(
  context: ReadContext,
  type: NodeTypeDef,
  objects: readonly StoredObject[],
  items: readonly Readable[],
): Promise<AccessCheck> {
  const viewer = context.viewer;
  const { permissions } = context.schema;
  const always = permissions.alwaysGranted;
  const profile = type.nonUsers !== undefined && 'profile' in type.nonUsers ? new Set(type.nonUsers.profile) : undefined;
  const needed = items.some((item) => (item.scope !== undefined && item.scope !== always) || (profile !== undefined && !profile.has(item.name)));
  const others = new Set<number>();
  if (needed) {
    for (const object of objects) {
      const owner = nodeOwner(context, object);
      if (owner !== null && owner !== viewer.userId) others.add(owner);
    }
  }
  const granted = others.size > 0 ? await grantedScopesOf(context, others) : new Map<number, ReadonlySet<string>>();
  // In some versions another permission reads what this one does (read_stream what user_posts does).
  const readers = (scope: string) => permissions.readersOf(scope, context.version);
  const lacksScope = (object: StoredObject, item: Readable): boolean => {
    const scope = item.scope;
    if (scope === undefined || scope === always) return false;
    const owner = nodeOwner(context, object);
    if (owner === null) return false;
    const held = owner === viewer.userId ? viewer.scopes : granted.get(owner);
    return held === undefined || !readers(scope).some((reader) => held.has(reader));
  };
  /** A person who never used the viewer's app, whom it sees only by their public profile. */
  const nonUser = (object: StoredObject): boolean => {
    if (profile === undefined) return false;
    const person = nodeOwner(context, object);
    return person !== null && person !== viewer.userId && granted.get(person)?.has(always) !== true;
  };
  return {
    readable: (object, item) => !lacksScope(object, item) && !(profile !== undefined && !profile.has(item.name) && nonUser(object)),
    lacksScope,
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
