import { orderPermissions } from '../auth/grants.js';
import type { EdgeDef } from '../schema/definition.js';
import { silhouetteUrl } from '../schema/media.js';
import type { Grant, StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';
import type { Json } from './render.js';

/** Edges that are not association lists: a profile picture, a person's permissions for this app. */
export async function loadSpecialEdge(
  context: ReadContext,
  edge: EdgeDef,
  parents: readonly StoredObject[],
): Promise<Map<number, Json | undefined>> {
  const result = new Map<number, Json | undefined>();
  switch (edge.special) {
    case 'picture':
      for (const parent of parents) {
        result.set(parent.id, { data: { is_silhouette: true, url: silhouetteUrl(context.publicUrl) } });
      }
      return result;
    case 'permissions': {
      // Only the person themselves, or the app they answered, sees what they granted.
      const own = parents.filter((parent) => context.viewer.kind === 'app' || parent.id === context.viewer.userId);
      const grants =
        own.length > 0 ? await context.store.getGrants(context.viewer.app.id, own.map((p) => p.id)) : new Map<number, Grant[]>();
      for (const parent of parents) {
        const list = grants.get(parent.id) ?? [];
        result.set(parent.id, { data: orderPermissions(list).map((grant) => ({ permission: grant.scope, status: grant.status })) });
      }
      return result;
    }
    default:
      return result;
  }
}
