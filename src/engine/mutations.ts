import { GraphError } from '../errors.js';
import type { EdgeDef, EdgePost, NodeTypeDef, Party } from '../schema/definition.js';
import { PUBLISH } from '../schema/writes.js';
import type { IdOrRef, ObjectId, StoredObject, WriteOp } from '../store/store.js';
import { requireOwnApp } from './access.js';
import type { ReadContext } from './context.js';
import { externalId, loadRoot } from './node-ids.js';
import type { Json } from './render.js';
import { completeTestUser, deleteTestUser, prepareTestUser, updateTestUser } from './test-users.js';

const SUCCESS = { success: true };
/** Most comments one delete cascades through; beyond that the delete is refused rather than left half done. */
const MAX_CASCADE = 100_000;

/** The nodes one POST involves; a POST by an app has no viewing person, one without an item has no item. */
type Parties = { parent: ObjectId; viewer?: ObjectId; item?: ObjectId };

/** `POST /<id>/<edge>[/<item>]`: the one create path for every edge the schema declares writable. */
export async function postToEdge(
  context: ReadContext,
  idText: string,
  edgeName: string,
  params: Record<string, string>,
  itemText?: string,
): Promise<Json> {
  const { object, type } = await loadRoot(context, idText, 'post');
  const edge = writableEdge(context, type, edgeName, idText, itemText, 'post');
  const post = edge.post!;
  if (post.by === 'app') {
    requireOwnApp(context.viewer, object.id);
    const user = await prepareTestUser(context, object, readParams(post, params));
    const created = await writePost(context, post, { parent: object.id }, { owner: null, data: user.profile });
    return completeTestUser(context, created!, user);
  }
  const viewer = requirePublisher(context, post.scope!);
  if (post.item !== undefined) return postRequest(context, post, object.id, viewer, itemText!);
  if (post.creates === 'post' && object.id !== viewer && !(await areFriends(context, viewer, object.id))) {
    throw GraphError.permission('Posting on this wall requires being friends with its owner');
  }
  const data = readParams(post, params);
  const derived = post.creates ? (post.derive?.(data, { parent: object.id, viewer }) ?? {}) : {};
  const created = await writePost(context, post, { parent: object.id, viewer }, post.creates ? { owner: viewer, data: { ...data, ...derived } } : undefined);
  if (created === undefined) return SUCCESS;
  const createdType = context.schema.type(post.creates!)!;
  return { id: externalId(context, createdType, { id: created, owner: viewer } as StoredObject) };
}

/** `POST /<id>` updates a node; only test users are updatable, by their app. */
export async function updateNode(context: ReadContext, idText: string, params: Record<string, string>): Promise<Json> {
  if (context.viewer.kind === 'app') return updateTestUser(context, idText, params);
  throw GraphError.objectNotFound(idText, 'post');
}

/** Creates the node (if the POST creates one) and writes the declared links and any further ops, in one transaction. */
async function writePost(
  context: ReadContext,
  post: EdgePost,
  parties: Parties,
  created?: { owner: ObjectId | null; data: Record<string, unknown> },
  further: WriteOp[] = [],
): Promise<ObjectId | undefined> {
  const now = context.now;
  const ops: WriteOp[] = [];
  if (created) {
    ops.push({ op: 'createObject', object: { type: post.creates!, owner: created.owner, createdTime: now, updatedTime: now, data: created.data } });
  }
  for (const link of post.links) {
    ops.push({ op: 'addAssoc', type: link.assoc, id1: linkEnd(parties, link.from), id2: linkEnd(parties, link.to), time: now });
  }
  const { results } = await context.store.write([...ops, ...further]);
  return created ? (results[0] as ObjectId) : undefined;
}

/**
 * A POST that names another node and waits for it to agree (`/<u1>/friends/<u2>`): the first
 * asks, the same POST from the other side confirms. Asking again, or asking someone already
 * linked, changes nothing.
 */
async function postRequest(context: ReadContext, post: EdgePost, parent: ObjectId, viewer: ObjectId, itemText: string): Promise<Json> {
  if (parent !== viewer) throw GraphError.permission('Only the person making a request may post it');
  const { object: item, type } = await loadRoot(context, itemText, 'post');
  if (type.name !== post.item) throw GraphError.objectNotFound(itemText, 'post');
  if (item.id === viewer) throw GraphError.invalidParameter('A request cannot be addressed to its sender');
  const request = post.request!;
  const parties: Parties = { parent, viewer, item: item.id };
  const first = post.links[0]!;
  // The schema lets a request's links join only existing nodes (no created one), so both ends are ids.
  const firstEnds = [linkEnd(parties, first.from), linkEnd(parties, first.to)] as [ObjectId, ObjectId];
  const [asked, linked] = await Promise.all([
    context.store.getExisting(request, [[parent, item.id]]),
    context.store.getExisting(first.assoc, [firstEnds]),
  ]);
  if (linked.size > 0) return SUCCESS;
  if (asked.size === 0) {
    await context.store.write([{ op: 'addAssoc', type: request, id1: item.id, id2: parent, time: context.now }]);
    return SUCCESS;
  }
  // Confirmed: link both sides and clear the request (both ways, in case both asked at once).
  await writePost(context, post, parties, undefined, [
    { op: 'removeAssoc', type: request, id1: parent, id2: item.id },
    { op: 'removeAssoc', type: request, id1: item.id, id2: parent },
  ]);
  return SUCCESS;
}

/** The node a link's end names: one of the POST's parties, or a reference to the node the same write creates. */
function linkEnd(parties: Parties, name: Party): IdOrRef {
  const end = name === 'created' ? { ref: 0 } : parties[name];
  if (end === undefined) throw new Error(`A link of this POST joins its ${name}, which it does not have`);
  return end;
}

/** `DELETE /<id>/<edge>`: undoes a link-only POST (unlike). */
export async function deleteFromEdge(context: ReadContext, idText: string, edgeName: string, itemText?: string): Promise<Json> {
  const { object, type } = await loadRoot(context, idText, 'delete');
  const edge = writableEdge(context, type, edgeName, idText, itemText, 'delete');
  const post = edge.post!;
  if (post.creates || post.item !== undefined || post.by === 'app') throw GraphError.objectNotFound(`${idText}/${edgeName}`, 'delete');
  const viewer = requirePublisher(context, post.scope!);
  const party = (name: Party): number => (name === 'parent' ? object.id : viewer);
  await context.store.write(post.links.map((link) => ({ op: 'removeAssoc' as const, type: link.assoc, id1: party(link.from), id2: party(link.to) })));
  return SUCCESS;
}

/**
 * `DELETE /<id>`: removes a node the viewer wrote (or that was written on their wall), with its
 * comments, in one transaction; with an app token, one of the app's test users.
 */
export async function deleteNode(context: ReadContext, idText: string): Promise<Json> {
  if (context.viewer.kind === 'app') return deleteTestUser(context, idText);
  const viewer = requirePublisher(context, PUBLISH);
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

/** A person's write: a user token carrying the permission the schema names for it. */
function requirePublisher(context: ReadContext, scope: string): number {
  const { viewer } = context;
  if (viewer.userId === null) throw GraphError.activeTokenRequired();
  if (!viewer.scopes.has(scope)) throw GraphError.permission(`Requires extended permission: ${scope}`);
  return viewer.userId;
}

/** The edge a write names; a path component after it is either the edge's alias or the node the POST addresses. */
function writableEdge(
  context: ReadContext,
  type: NodeTypeDef,
  edgeName: string,
  idText: string,
  itemText: string | undefined,
  method: 'post' | 'delete',
): EdgeDef {
  const edge = context.schema.edge(type, edgeName);
  const named = itemText === undefined || itemText === edge?.alias || edge?.post?.item !== undefined;
  if (!edge || !named) throw GraphError.unknownPath(`/${[edgeName, itemText].filter((part) => part !== undefined).join('/')}`);
  if (!edge.post) throw GraphError.objectNotFound(`${idText}/${edgeName}`, method);
  if (edge.post.item !== undefined && itemText === undefined && method === 'post') {
    throw GraphError.invalidParameter(`A POST to ${edgeName} names the ${edge.post.item} it is for after the edge: /${idText}/${edgeName}/<id>`);
  }
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
