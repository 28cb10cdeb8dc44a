import { orderPermissions } from '../auth/grants.js';
import type { EdgeDef } from '../schema/definition.js';
import { silhouetteUrl, videoThumbnailUrl, VIDEO_FRAME } from '../schema/media.js';
import { postAttachment } from '../schema/post-parts.js';
import type { Grant } from '../store/auth-store.js';
import type { StoredObject } from '../store/graph-store.js';
import { loadIdsForBusiness } from './business-ids.js';
import type { ReadContext } from './context.js';
import type { Json } from '../ids.js';

/**
 * Edges that are not association lists: a profile picture, a person's permissions for this app,
 * their ids in sibling apps, a video's thumbnails, a post's attachment (built from the post
 * itself, so it costs no store call). `nested`: an empty collection inside a node is left out.
 */
export async function loadSpecialEdge(
  context: ReadContext,
  edge: EdgeDef,
  parents: readonly StoredObject[],
  nested: boolean,
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
        result.set(parent.id, { data: orderPermissions(context.schema.permissions, list).map((grant) => ({ permission: grant.scope, status: grant.status })) });
      }
      return result;
    }
    case 'attachments':
      for (const parent of parents) {
        const attachment = postAttachment(parent, context.fieldContext);
        result.set(parent.id, attachment ? { data: [attachment] } : nested ? undefined : { data: [] });
      }
      return result;
    case 'idsForBusiness':
      return loadIdsForBusiness(context, parents);
    case 'thumbnails':
      for (const parent of parents) result.set(parent.id, { data: [videoThumbnail(context.publicUrl, parent)] });
      return result;
    default:
      return result;
  }
}

/** Loom decodes no frames: a video has one thumbnail, drawn at the video's frame size. */
function videoThumbnail(publicUrl: string, video: StoredObject): Json {
  return { height: VIDEO_FRAME.height, width: VIDEO_FRAME.width, scale: 1, uri: videoThumbnailUrl(publicUrl, video.id), is_preferred: true };
}
