/**
 * Edges of the Graph that are not association lists: a profile picture, a person's permissions
 * for this app, their ids in sibling apps, a video's thumbnails, a post's attachment (built from
 * the post itself, so it costs no store call). `nested`: an empty collection inside a node is left out.
 */
import { orderPermissions } from '../auth/grants.js';
import type { ObjectId, Json } from '../ids.js';
import type { BehaviourContext, SpecialEdge } from '../schema/behaviours.js';
import { silhouetteUrl, videoThumbnailUrl, VIDEO_FRAME } from '../schema/media.js';
import { postAttachment } from './post-parts.js';
import type { StoredNode } from '../schema/stored-node.js';
import type { Grant } from '../store/auth-store.js';
import { loadIdsForBusiness } from './business-ids.js';
import { pictureAnswer } from './picture.js';

/** Each of these parents' collection, made one by one from the parent alone. */
function eachParent(make: (context: BehaviourContext, parent: StoredNode, nested: boolean) => Json | undefined): SpecialEdge['load'] {
  return async (context, parents, nested) => new Map(parents.map((parent) => [parent.id, make(context, parent, nested)] as const));
}

/** A profile picture: the collection describes the silhouette; the edge's own path answers as pictureAnswer does, whoever asks. */
export const picture: SpecialEdge = {
  load: eachParent((context) => ({ data: { is_silhouette: true, url: silhouetteUrl(context.publicUrl) } })),
  answerPath: (context, params) => pictureAnswer(context.publicUrl, params),
};

/** What a person granted the viewer's app: only the person themselves, or the app they answered, sees it. */
export const permissions: SpecialEdge = {
  load: async (context, parents) => {
    const own = parents.filter((parent) => context.viewer.kind === 'app' || parent.id === context.viewer.userId);
    const grants =
      own.length > 0 ? await context.store.getGrants(context.viewer.app.id, own.map((p) => p.id)) : new Map<ObjectId, Grant[]>();
    const result = new Map<ObjectId, Json | undefined>();
    for (const parent of parents) {
      const list = grants.get(parent.id) ?? [];
      result.set(parent.id, { data: orderPermissions(context.schema.permissions, list).map((grant) => ({ permission: grant.scope, status: grant.status })) });
    }
    return result;
  },
};

export const attachments: SpecialEdge = {
  load: eachParent((context, parent, nested) => {
    const attachment = postAttachment(parent, context.fieldContext);
    return attachment ? { data: [attachment] } : nested ? undefined : { data: [] };
  }),
};

export const idsForBusiness: SpecialEdge = { load: loadIdsForBusiness };

/** Loom decodes no frames: a video has one thumbnail, drawn at the video's frame size. */
export const thumbnails: SpecialEdge = {
  load: eachParent((context, video) => ({
    data: [{ height: VIDEO_FRAME.height, width: VIDEO_FRAME.width, scale: 1, uri: videoThumbnailUrl(context.publicUrl, video.id), is_preferred: true }],
  })),
};
