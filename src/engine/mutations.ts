import { GraphError } from '../errors.js';
import type { EdgeDef, EdgePost, NodeTypeDef, Party } from '../schema/definition.js';
import type { IdOrRef, StoredObject, WriteOp } from '../store/store.js';
import type { ReadContext } from './context.js';
import { externalId, loadRoot } from './node-ids.js';
import type { Json } from './render.js';

const SUCCESS = { success: true };
/** Most comments one delete cascades through; beyond that the delete is refused rather than left half done. */
const MAX_CASCADE = 100_000;

/** `POST /<id>/<edge>`: the one create path for every edge the schema declares writable. */
export async function postToEdge(context: ReadContext, idText: string, edgeName: string, params: Record<string, string>): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'post');
  const edge = writableEdge(context, type, edgeName, idText);
  const post = edge.post!;
  if (post.creates === 'post' && object.id !== viewer && !(await areFriends(context, viewer, object.id))) {
    throw GraphError.permission('Posting on this wall requires being friends with its owner');
  }
  const data = readParams(post, params);
  const now = context.now;
  const ops: WriteOp[] = [];
  if (post.creates) {
    const derived = post.derive?.(data, { parent: object.id, viewer }) ?? {};
    ops.push({ op: 'createObject', object: { type: post.creates, owner: viewer, createdTime: now, updatedTime: now, data: { ...data, ...derived } } });
  }
  const party = (name: Party): IdOrRef => (name === 'parent' ? object.id : name === 'viewer' ? viewer : { ref: 0 });
  for (const link of post.links) ops.push({ op: 'addAssoc', type: link.assoc, id1: party(link.from), id2: party(link.to), time: now });
  const { results } = await context.store.write(ops);
  if (!post.creates) return SUCCESS;
  const createdType = context.schema.type(post.creates)!;
  const created = { id: results[0] as number, owner: viewer } as StoredObject;
  return { id: externalId(context, createdType, created) };
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

/** `DELETE /<id>`: removes a node the viewer wrote (or that was written on their wall), with its comments, in one transaction. */
export async function deleteNode(context: ReadContext, idText: string): Promise<Json> {
  const viewer = requirePublisher(context);
  const { object, type } = await loadRoot(context, idText, 'delete');
  const wall = object.data.to;
  const mayDelete = type.name !== 'user' && (object.owner === viewer || (Array.isArray(wall) && wall.includes(viewer)));
  if (!mayDelete) throw GraphError.permission('You may only delete what you wrote or what was written on your wall');
  const comments = (await context.store.getPages({ type: 'comments', id1s: [object.id], limit: MAX_CASCADE + 1 })).get(object.id) ?? [];
  if (comments.length > MAX_CASCADE) throw GraphError.invalidParameter('This object has too many comments to delete at once');
  await context.store.write([
    ...comments.map((comment) => ({ op: 'deleteObject' as const, id: comment.id2 })),
    { op: 'deleteObject', id: object.id },
  ]);
  return SUCCESS;
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
function readParams(post: EdgePost, params: Record<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const def of post.params ?? []) {
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
  if (post.oneOf && !post.oneOf.some((name) => data[name] !== undefined)) {
    throw GraphError.invalidParameter(`The parameter ${post.oneOf.join(' or ')} is required`);
  }
  return data;
}
