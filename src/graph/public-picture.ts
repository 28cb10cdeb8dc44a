import { idTagOf } from '../auth/app-scoped-ids.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { GraphError } from '../errors.js';
import type { Redirect } from '../schema/behaviours.js';
import type { Schema } from '../schema/registry.js';
import type { Store } from '../store/store.js';
import type { StoredObject } from '../store/graph-store.js';
import type { ObjectId, Json } from '../ids.js';
import { pictureAnswer } from './picture.js';
import { picture } from './special-edges.js';

/** `GET /<id>/picture` without a token: pictures are public, for an id of any app. */
export async function readPublicPicture(
  store: Store,
  schema: Schema,
  publicUrl: string,
  idText: string,
  params: Record<string, string>,
): Promise<Json | Redirect> {
  const object = await findPictured(store, schema, idText);
  if (!object) throw GraphError.objectNotFound(idText.slice(0, 128));
  return pictureAnswer(publicUrl, params);
}

/**
 * The node an id names when no token says which app it is of. A user's id is scoped to some app:
 * its slot names the few apps it may belong to (one indexed lookup), each of which decodes it,
 * and the first decoding that is a user wins (one batched read). Any other id is plain, and
 * names a node with a picture of its own (a page, an app).
 */
async function findPictured(store: Store, schema: Schema, idText: string): Promise<StoredObject | undefined> {
  const tag = idTagOf(idText);
  if (tag !== undefined) {
    const apps = await store.findAppsByIdTag(tag);
    const candidates = [...new Set(apps.map((app) => scopedIdsFor(app).unscope(idText)).filter((id): id is ObjectId => id !== undefined))];
    const objects = candidates.length > 0 ? await store.getObjects(candidates) : new Map<ObjectId, StoredObject>();
    return candidates.map((id) => objects.get(id)).find((object) => object?.type === 'user');
  }
  if (!/^\d{1,16}$/.test(idText) || !Number.isSafeInteger(Number(idText))) return undefined;
  const id = Number(idText);
  const object = (await store.getObjects([id])).get(id);
  const type = object && schema.type(object.type);
  const pictured = type !== undefined && type.idForm === 'plain' && type.edges.some((edge) => edge.special === picture);
  return pictured ? object : undefined;
}
