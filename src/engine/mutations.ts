import { GraphError } from '../errors.js';
import { fetchImage, tooLarge } from '../media/fetch-image.js';
import { inspectImage, type ImageInfo } from '../media/image-check.js';
import type { EdgeDef, EdgePost, NodeTypeDef, ParamDef, Party } from '../schema/definition.js';
import { imageKeyOf } from '../schema/media.js';
import type { IdOrRef, StoredObject, WriteOp } from '../store/store.js';
import type { ReadContext } from './context.js';
import { externalId, loadRoot } from './node-ids.js';
import { readNode } from './read.js';
import type { Json } from './render.js';

const SUCCESS = { success: true };
/** Most comments and replies one delete cascades through; beyond that the delete is refused rather than left half done. */
const MAX_CASCADE = 100_000;

/**
 * `POST /<id>/<edge>`: the one create path for every edge the schema declares writable. With
 * `fields`, the answer is the created node read back with those fields.
 */
export async function postToEdge(
  context: ReadContext,
  idText: string,
  edgeName: string,
  params: Record<string, string>,
  upload?: Buffer,
): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'post');
  const edge = writableEdge(context, type, edgeName, idText);
  const post = edge.post!;
  await checkAllowed(context, post, object, viewer);
  const data = readParams(post.params ?? [], params);
  if (post.oneOf && !post.oneOf.some((name) => data[name] !== undefined)) {
    throw GraphError.invalidParameter(`The parameter ${post.oneOf.join(' or ')} is required`);
  }
  const image = post.image ? await receiveImage(context, upload, data.url) : undefined;

  const now = context.now;
  const thread = threadOf(object);
  const ops: WriteOp[] = [];
  if (post.creates) {
    const created = post.derive?.(data, { parent: object.id, viewer, thread }) ?? data;
    const imageData = image ? { image: { key: image.key, contentType: image.contentType }, width: image.width, height: image.height } : {};
    ops.push({ op: 'createObject', object: { type: post.creates, owner: viewer, createdTime: now, updatedTime: now, data: { ...created, ...imageData } } });
  }
  const parties: Record<Party, IdOrRef> = { parent: object.id, viewer, thread, created: { ref: 0 } };
  for (const link of post.links) ops.push({ op: 'addAssoc', type: link.assoc, id1: parties[link.from], id2: parties[link.to], time: now });
  const storyIndex = post.story !== undefined && !isTrue(data.no_story) ? ops.length : undefined;
  if (storyIndex !== undefined) {
    const story = { ...post.story!(data), ...(image ? { image: { key: image.key } } : {}) };
    const storyRef = { ref: storyIndex };
    ops.push({ op: 'createObject', object: { type: 'post', owner: viewer, createdTime: now, updatedTime: now, data: story }, refFields: { object_id: { ref: 0 } } });
    ops.push({ op: 'addAssoc', type: 'posts', id1: viewer, id2: storyRef, time: now });
    ops.push({ op: 'addAssoc', type: 'feed', id1: viewer, id2: storyRef, time: now });
  }

  let results: Array<number | boolean>;
  try {
    ({ results } = await context.store.write(ops));
  } catch (error) {
    // The bytes were made durable first; without the row that points at them they are garbage.
    if (image) await context.media.store.remove(image.key);
    throw error;
  }
  if (!post.creates) return SUCCESS;
  const createdId = externalId(context, context.schema.type(post.creates)!, { id: results[0] as number, owner: viewer } as StoredObject);
  if (params.fields !== undefined) return readNode(context, createdId, { fields: params.fields });
  if (storyIndex === undefined) return { id: createdId };
  const postId = externalId(context, context.schema.type('post')!, { id: results[storyIndex] as number, owner: viewer } as StoredObject);
  return { id: createdId, post_id: postId };
}

interface ReceivedImage extends ImageInfo {
  key: string;
}

/** The image of an upload, from the file part or the `url` parameter, checked and durably stored. */
async function receiveImage(context: ReadContext, upload: Buffer | undefined, url: unknown): Promise<ReceivedImage> {
  const { store, maxBytes } = context.media;
  let bytes = upload;
  if (bytes === undefined && typeof url === 'string') bytes = await fetchImage(url, maxBytes);
  if (bytes === undefined) throw new GraphError(324, '(#324) Requires upload file: send the image as a file part or give its url');
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  const info = inspectImage(bytes);
  return { ...info, key: await store.save(bytes) };
}

async function checkAllowed(context: ReadContext, post: EdgePost, object: StoredObject, viewer: number): Promise<void> {
  if (post.allowed === undefined) return;
  const own = object.id === viewer || object.owner === viewer;
  if (own) return;
  if (post.allowed === 'friends' && object.type === 'user' && (await areFriends(context, viewer, object.id))) return;
  throw GraphError.permission(
    post.allowed === 'friends' ? 'Posting on this wall requires being friends with its owner' : 'Only the owner may add to this',
  );
}

function isTrue(value: unknown): boolean {
  return value === 'true' || value === '1';
}

/** `POST /<id>`: the one update path; the owner sets the fields the schema marks writable. */
export async function updateNode(context: ReadContext, idText: string, params: Record<string, string>): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'post');
  const writable: ParamDef[] = type.fields.flatMap((field) => (field.writable ? [{ name: field.name, ...field.writable }] : []));
  if (writable.length === 0) throw GraphError.objectNotFound(idText, 'post');
  if (object.owner !== viewer) throw GraphError.permission('You may only edit what you wrote');
  const changes = readParams(writable, params);
  if (Object.keys(changes).length === 0) {
    throw GraphError.invalidParameter(`Nothing to update: give ${writable.map((def) => def.name).join(' or ')}`);
  }
  await context.store.write([{ op: 'updateObject', id: object.id, data: changes, updatedTime: context.now }]);
  return params.fields === undefined ? SUCCESS : readNode(context, idText, { fields: params.fields });
}

/** `DELETE /<id>/<edge>`: undoes a link-only POST (unlike). */
export async function deleteFromEdge(context: ReadContext, idText: string, edgeName: string): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'delete');
  const edge = writableEdge(context, type, edgeName, idText, 'delete');
  if (edge.post!.creates) throw GraphError.objectNotFound(`${idText}/${edgeName}`, 'delete');
  const party = (name: Party): number => (name === 'parent' ? object.id : viewer);
  await context.store.write(edge.post!.links.map((link) => ({ op: 'removeAssoc' as const, type: link.assoc, id1: party(link.from), id2: party(link.to) })));
  return SUCCESS;
}

/** `DELETE /<id>`: removes a node the viewer wrote (or that was written on their wall), with its comments and their replies, in one transaction. */
export async function deleteNode(context: ReadContext, idText: string): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'delete');
  const wall = object.data.to;
  const mayDelete = type.name !== 'user' && (object.owner === viewer || (Array.isArray(wall) && wall.includes(viewer)));
  if (!mayDelete) throw GraphError.permission('You may only delete what you wrote or what was written on your wall');
  const comments = await commentsOf(context, [object.id]);
  // Comments nest two levels deep: comments, and replies to them.
  const replies = await commentsOf(context, comments);
  if (comments.length + replies.length > MAX_CASCADE) {
    throw GraphError.invalidParameter('This object has too many comments to delete at once');
  }
  await context.store.write([...replies, ...comments, object.id].map((id) => ({ op: 'deleteObject' as const, id })));
  // Only after the commit: a failed delete must leave the photo whole.
  const key = imageKeyOf(object.data);
  if (key) await context.media.store.remove(key);
  return SUCCESS;
}

async function commentsOf(context: ReadContext, ids: readonly number[]): Promise<number[]> {
  const pages = await context.store.getPages({ type: 'comments', id1s: ids, limit: MAX_CASCADE + 1 });
  return [...pages.values()].flatMap((page) => page.map((row) => row.id2));
}

/** The post or photo a conversation hangs under: a reply joins the thread of the comment it answers. */
function threadOf(object: StoredObject): number {
  return object.type === 'comment' && typeof object.data.parent === 'number' ? object.data.parent : object.id;
}

function requirePublisher(context: ReadContext): number {
  const { viewer } = context;
  if (viewer.userId === null) throw GraphError.activeTokenRequired();
  if (!viewer.scopes.has('publish_actions')) throw GraphError.permission('Requires extended permission: publish_actions');
  return viewer.userId;
}

function writableEdge(context: ReadContext, type: NodeTypeDef, edgeName: string, idText: string, method: 'post' | 'delete' = 'post'): EdgeDef {
  const edge = context.schema.edge(type, edgeName);
  if (!edge) throw GraphError.unknownPath(`/${edgeName}`);
  if (!edge.post) throw GraphError.objectNotFound(`${idText}/${edgeName}`, method);
  return edge;
}

async function areFriends(context: ReadContext, a: number, b: number): Promise<boolean> {
  return (await context.store.getExisting('friends', [[a, b]])).size > 0;
}

/** The declared parameters, bounded and decoded; anything undeclared is ignored, as the real service does. */
function readParams(defs: readonly ParamDef[], params: Record<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const def of defs) {
    const value = params[def.name];
    if (value === undefined || value === '') continue;
    if (value.length > def.maxLength) {
      throw GraphError.invalidParameter(`The parameter ${def.name} is longer than ${def.maxLength} characters`);
    }
    if (!def.json) {
      data[def.name] = value;
      continue;
    }
    try {
      data[def.name] = JSON.parse(value);
    } catch {
      throw GraphError.invalidParameter(`The parameter ${def.name} must be a JSON object`);
    }
  }
  return data;
}
