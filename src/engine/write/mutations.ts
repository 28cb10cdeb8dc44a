import { rules, type BooleanResult } from '../../schema/versions.js';
import { GraphError } from '../../errors.js';
import type { AccessRule, EdgeDef, EdgePost, NodeTypeDef, ParamDef, Party } from '../../schema/definition.js';
import { mediaKeyOf } from '../../schema/media.js';
import { removeUnreferenced } from '../../media/media-sweep.js';
import { CountLimitError, type IdOrRef, type WriteOp } from '../../store/write-ops.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ObjectId, Json } from '../../ids.js';
import { requireOwnApp } from '../access/access.js';
import type { ReadContext } from '../request/context.js';
import { externalId, loadRoot } from '../read/node-ids.js';
import { readNode } from '../read/read.js';
import { followedId, visibleIds, visibleObjects } from '../access/visibility.js';
import { passingRule } from '../access/access-rules.js';
import { counterChangeOps, counterOps } from '../../store/counter-ops.js';
import { receiveImage, receiveVideo } from './received-files.js';
import { updateAppSettings } from './app-settings.js';
import { readParams } from './write-params.js';

/** Most comments and replies one delete cascades through; beyond that the delete is refused rather than left half done. */
const MAX_CASCADE = 100_000;

/** The nodes one POST involves; a POST by an app has no viewing person, one without an item has no item. */
type Parties = { parent: ObjectId; viewer?: ObjectId; item?: ObjectId; thread?: ObjectId };

/** What a POST carries beside its parameters. */
export interface PostExtras {
  /** The node named after the edge (`<u2>` in `/<u1>/friends/<u2>`). */
  itemText?: string;
  /** The bytes of an uploaded file. */
  upload?: Buffer;
}

/**
 * `POST /<id>/<edge>[/<item>]`: the one create path for every edge the schema declares writable.
 * With `fields`, the answer is the created node read back with those fields.
 */
export async function postToEdge(
  context: ReadContext,
  idText: string,
  edgeName: string,
  params: Record<string, string>,
  extras: PostExtras = {},
): Promise<Json | BooleanResult> {
  const { object: named, type } = await loadRoot(context, idText, 'post');
  const edge = writableEdge(context, type, edgeName, idText, extras.itemText, 'post');
  const post = edge.post!;
  const object = post.flattens ? await answeredNode(context, post, named) : named;
  if (post.byApp) {
    requireOwnApp(context.viewer, object.id);
    return post.byApp(context, object, readParams(post.params ?? [], params, context));
  }
  const viewer = requirePublisher(context, post.scope!);
  if (post.item !== undefined) return postRequest(context, post, object.id, viewer, extras.itemText!);
  await checkAllowed(context, post, object, viewer);
  const data = readParams(post.params ?? [], params, context);
  if (post.oneOf && !post.oneOf.some((name) => data[name] !== undefined)) {
    throw GraphError.invalidParameter(`The parameter ${post.oneOf.join(' or ')} is required`);
  }
  const image = post.image ? await receiveImage(context, extras.upload, data.url) : undefined;
  const video = post.video ? await receiveVideo(context, extras.upload, data.file_url) : undefined;
  const stored = image ?? video;

  const thread = threadOf(context, object);
  const parties: Parties = { parent: object.id, viewer, thread };
  let created: { owner: ObjectId; data: Record<string, unknown> } | undefined;
  const resolved = post.resolve ? await post.resolve(context, viewer, data) : undefined;
  if (post.creates) {
    const imageData = image ? { image: { key: image.key, contentType: image.contentType }, width: image.width, height: image.height } : {};
    const videoData = video ? { video: { key: video.key, contentType: video.contentType }, ...(video.length === undefined ? {} : { length: video.length }) } : {};
    const written = resolved?.data ?? data;
    const derived = post.derive?.(written, { parent: object.id, viewer, thread, app: context.viewer.app.id }, object.data) ?? written;
    const createdType = context.schema.type(post.creates)!;
    const checked = createdType.checkData ? createdType.checkData(internalRefs(context, createdType, derived), undefined) : derived;
    if (createdType.checkData) await requireVisibleRefs(context, createdType, checked);
    created = { owner: viewer, data: asAuthor(context, { ...checked, ...imageData, ...videoData }) };
  } else if (post.notSelf && (object.id === viewer || object.owner === viewer)) {
    throw GraphError.invalidParameter('You cannot do this to your own node');
  }
  // A story follows the created node and its links in the same batch.
  const storyOf = created ? post.story : undefined;
  const storyData = storyOf?.data(data, created!.data, context.viewer.app.id);
  const storyIndex = storyData ? 1 + post.links.length : undefined;
  const story: WriteOp[] = [];
  if (storyOf && storyData && storyIndex !== undefined) {
    const now = context.now;
    story.push(
      { op: 'createObject', object: { type: storyOf.type, owner: viewer, createdTime: now, updatedTime: now, data: asAuthor(context, storyData) }, refFields: { [storyOf.names]: { ref: 0 } } },
      ...storyOf.lists.map((list): WriteOp => ({ op: 'addAssoc', type: list, id1: viewer, id2: { ref: storyIndex }, time: now })),
      { op: 'addAssoc', type: storyOf.assoc, id1: { ref: 0 }, id2: { ref: storyIndex }, time: now },
    );
  }

  const counters = created ? counterOps(context.schema.type(post.creates!)?.counters, { owner: viewer, data: created.data }, 1) : [];
  const linksToCreated = (resolved?.linksToCreated ?? []).map((link): WriteOp => ({ op: 'addAssoc', type: link.assoc, id1: link.from, id2: { ref: 0 }, time: context.now }));
  const further = [...story, ...counters, ...linksToCreated];
  let results: Array<ObjectId | boolean>;
  try {
    ({ results } = await writePost(context, post, parties, created, further));
  } catch (error) {
    // The bytes were made durable first; without the row that points at them they are garbage.
    if (stored) await context.media.store.discard(stored.key);
    throw error;
  }
  // Only a committed row's file is put in place; a crash before this leaves a staged file the sweep settles.
  if (stored) await context.media.store.publish(stored.key);
  if (!post.creates) return rules.booleanResult(context.version);
  const createdId = externalId(context, context.schema.type(post.creates)!, { id: results[0] as ObjectId, owner: viewer, data: created!.data } as StoredObject);
  if (params.fields !== undefined) return readAsWriter(context, post.creates, createdId, params.fields);
  if (!storyOf || storyIndex === undefined) return { id: createdId };
  const storyId = externalId(context, context.schema.type(storyOf.type)!, { id: results[storyIndex] as ObjectId, owner: viewer, data: asAuthor(context, {}) } as StoredObject);
  return { id: createdId, [storyOf.answer]: storyId };
}

/**
 * `POST /<id>`: the one update path. A person sets the fields the schema marks writable where the
 * type's rule (or else the package's policy) lets them; an app changes its own settings, or what
 * the schema's code lets it (its test users).
 */
export async function updateNode(context: ReadContext, idText: string, params: Record<string, string>): Promise<Json | BooleanResult> {
  if (context.viewer.kind === 'app') {
    const own = idText === 'app' || idText === String(context.viewer.app.id);
    if (own) return updateAppSettings(context, params);
    return context.schema.appWrites ? context.schema.appWrites.update(context, idText, params) : notFoundForApp(context, idText, 'post');
  }
  const { object, type } = await loadRoot(context, idText, 'post');
  const writable: ParamDef[] = type.fields.flatMap((field) => (field.writable ? [{ name: field.name, ...field.writable }] : []));
  if (writable.length === 0) throw GraphError.objectNotFound(idText, 'post');
  const rule = type.writeRules?.update;
  const policy = context.schema.writePolicy;
  if (rule || !policy) {
    if (context.viewer.userId === null) throw GraphError.activeTokenRequired();
    await requireRule(context, rule, object, 'You may not change this');
  } else {
    await policy.update(context, object);
  }
  const given = readParams(writable, params, context);
  if (Object.keys(given).length === 0) {
    throw GraphError.invalidParameter(`Nothing to update: give ${writable.map((def) => def.name).join(' or ')}`);
  }
  const changes = type.checkData ? type.checkData(internalRefs(context, type, given), object.data) : given;
  if (type.checkData) await requireVisibleRefs(context, type, changes);
  await context.store.write([{ op: 'updateObject', id: object.id, data: changes, updatedTime: context.now }, ...counterChangeOps(type.counters, object, changes)]);
  return params.fields === undefined ? rules.booleanResult(context.version) : readAsWriter(context, type.name, idText, params.fields);
}

/** An app token changes or deletes only what the schema's code lets it (its test users): any other node is not found for it. */
async function notFoundForApp(context: ReadContext, idText: string, method: 'post' | 'delete'): Promise<never> {
  await loadRoot(context, idText, method);
  throw GraphError.objectNotFound(idText, method);
}

/**
 * The answer of a write with `fields`: the node just written, read by its writer. The writer sees
 * what they wrote whatever read permission they hold (an uploader without `user_photos` still
 * gets the caption back), so the written type's own permission counts as granted for this read.
 */
function readAsWriter(context: ReadContext, typeName: string, idText: string, fields: string): Promise<Json> {
  const scope = context.schema.type(typeName)?.scope;
  if (scope === undefined) return readNode(context, idText, { fields });
  const viewer = { ...context.viewer, scopes: new Set([...context.viewer.scopes, scope]) };
  return readNode(context.withViewer(viewer), idText, { fields });
}

/**
 * Creates the node (if the POST creates one) at index 0 of the batch and writes the declared
 * links and any further ops, in one transaction; last, the check of the parent's cap, which then
 * counts what this batch added.
 */
export async function writePost(
  context: ReadContext,
  post: EdgePost,
  parties: Parties,
  created?: { owner: ObjectId | null; data: Record<string, unknown> },
  further: WriteOp[] = [],
): Promise<{ results: Array<ObjectId | boolean> }> {
  const now = context.now;
  const ops: WriteOp[] = [];
  if (created) {
    ops.push({ op: 'createObject', object: { type: post.creates!, owner: created.owner, createdTime: now, updatedTime: now, data: created.data } });
  }
  for (const link of post.unlinks ?? []) {
    ops.push({ op: 'removeAssoc', type: link.assoc, id1: linkEnd(parties, link.from) as ObjectId, id2: linkEnd(parties, link.to) as ObjectId });
  }
  for (const link of post.links) {
    ops.push({ op: 'addAssoc', type: link.assoc, id1: linkEnd(parties, link.from), id2: linkEnd(parties, link.to), time: now });
  }
  ops.push(...further);
  const cap = post.cap;
  if (cap) ops.push({ op: 'checkCount', type: cap.assoc, id1: parties.parent, max: cap.max });
  try {
    return await context.store.write(ops);
  } catch (error) {
    if (cap && error instanceof CountLimitError) throw GraphError.invalidParameter(cap.message);
    throw error;
  }
}

/** Who may POST on this node: the declared rule, or the package's own check; anyone who sees it when neither is given. */
async function checkAllowed(context: ReadContext, post: EdgePost, object: StoredObject, viewer: ObjectId): Promise<void> {
  if (post.allow) return requireRule(context, post.allow, object, 'You may not write here');
  if (post.check) return post.check(context, object, viewer);
}

/**
 * A POST that names another node and waits for it to agree (`/<u1>/friends/<u2>`): the first
 * asks, the same POST from the other side confirms. Asking again, or asking someone already
 * linked, changes nothing.
 */
async function postRequest(context: ReadContext, post: EdgePost, parent: ObjectId, viewer: ObjectId, itemText: string): Promise<Json | BooleanResult> {
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
  if (linked.size > 0) return rules.booleanResult(context.version);
  if (asked.size === 0) {
    await context.store.write([{ op: 'addAssoc', type: request, id1: item.id, id2: parent, time: context.now }]);
    return rules.booleanResult(context.version);
  }
  // Confirmed: link both sides and clear the request (both ways, in case both asked at once).
  await writePost(context, post, parties, undefined, [
    { op: 'removeAssoc', type: request, id1: parent, id2: item.id },
    { op: 'removeAssoc', type: request, id1: item.id, id2: parent },
  ]);
  return rules.booleanResult(context.version);
}

/** The node a link's end names: one of the POST's parties, or a reference to the node the same write creates. */
function linkEnd(parties: Parties, name: Party): IdOrRef {
  const end = name === 'created' ? { ref: 0 } : parties[name];
  if (end === undefined) throw new Error(`A link of this POST joins its ${name}, which it does not have`);
  return end;
}

/** `DELETE /<id>/<edge>`: undoes a link-only POST (unlike) that moved nothing. */
export async function deleteFromEdge(context: ReadContext, idText: string, edgeName: string, itemText?: string): Promise<Json | BooleanResult> {
  const { object, type } = await loadRoot(context, idText, 'delete');
  const edge = writableEdge(context, type, edgeName, idText, itemText, 'delete');
  const post = edge.post!;
  // An answer to an invitation is changed by giving another, never withdrawn.
  if (post.creates || post.item !== undefined || post.byApp !== undefined || post.unlinks) throw GraphError.objectNotFound(`${idText}/${edgeName}`, 'delete');
  const viewer = requirePublisher(context, post.scope!);
  const party = (name: Party): number => (name === 'parent' ? object.id : viewer);
  await context.store.write(post.links.map((link) => ({ op: 'removeAssoc' as const, type: link.assoc, id1: party(link.from), id2: party(link.to) })));
  return rules.booleanResult(context.version);
}

/**
 * `DELETE /<id>`: removes a node its type's rule (or else the package's policy) lets the viewer
 * delete, with the nodes its type says go with it (a photo's stories) and those the policy adds
 * (their comments and the replies to those), in one transaction; with an app token, what the
 * schema's code lets it delete (its test users).
 */
export async function deleteNode(context: ReadContext, idText: string): Promise<Json | BooleanResult> {
  if (context.viewer.kind === 'app') return context.schema.appWrites ? context.schema.appWrites.delete(context, idText) : notFoundForApp(context, idText, 'delete');
  const { object, type } = await loadRoot(context, idText, 'delete');
  const rule = type.writeRules?.delete;
  const policy = context.schema.writePolicy;
  if (rule || !policy) await requireRule(context, rule, object, 'You may not delete this');
  else await policy.delete(context, object);
  const companions = await listedFrom(context, type.deletesWith ?? [], [object.id]);
  const along = policy ? await policy.deletedWith(context, [object.id, ...companions], MAX_CASCADE) : [];
  if (companions.length + along.length > MAX_CASCADE) {
    throw GraphError.invalidParameter('This object has too many comments to delete at once');
  }
  const deleted = [...along, ...companions, object.id];
  await context.store.write([...(await takenBackCounters(context, deleted)), ...deleted.map((id) => ({ op: 'deleteObject' as const, id }))]);
  // Only after the commit: a failed delete must leave the photo whole.
  const key = type.ownsMedia ? mediaKeyOf(object.data) : undefined;
  if (key) await removeUnreferenced(context.store, context.media.store, [key]);
  return rules.booleanResult(context.version);
}

/**
 * Refuses with (#200) unless the viewer passes the rule on this node (a declared type's write
 * rule); with no rule, and no package policy to ask instead, nobody passes.
 */
async function requireRule(context: ReadContext, rule: AccessRule | undefined, object: StoredObject, message: string): Promise<void> {
  if (context.viewer.userId === null) throw GraphError.activeTokenRequired();
  if (rule === undefined) throw GraphError.permission(message);
  const passing = await passingRule(context, rule, [object], (ids, depth) => visibleIds(context, ids, depth));
  if (!passing.has(object.id)) throw GraphError.permission(message);
}

/**
 * Ref parameters as the client wrote them (the ids it was shown: app-scoped for principals,
 * compound for nodes with compound ids) turned into internal ids; what cannot be read stays as
 * written, for the type's check to refuse.
 */
function internalRefs(context: ReadContext, type: NodeTypeDef, data: Record<string, unknown>): Record<string, unknown> {
  const converted = { ...data };
  for (const field of type.fields) {
    const source = field.source;
    const value = converted[field.name];
    if (source?.kind !== 'ref' || typeof value !== 'string' || source.target === undefined) continue;
    const form = context.schema.type(source.target)?.idForm;
    const internal = form === 'user' ? context.viewer.ids.unscope(value) : form === 'post' ? /^\d+_(\d+)$/.exec(value)?.[1] : value;
    // An id the client could not have been shown stays unreadable, and the type's check refuses it.
    converted[field.name] = internal === undefined ? '' : String(internal);
  }
  return converted;
}

/**
 * A declared write may name only nodes that exist, are of the type its field refers to, and the
 * writer can see: one load and one visibility check for all the ref fields written.
 */
async function requireVisibleRefs(context: ReadContext, type: NodeTypeDef, data: Record<string, unknown>): Promise<void> {
  const named = new Map<number, { field: string; target: string | undefined }>();
  for (const field of type.fields) {
    const source = field.source;
    if (source?.kind !== 'ref' || !Object.hasOwn(data, source.key ?? field.name)) continue;
    const value = data[source.key ?? field.name];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'number') named.set(id, { field: field.name, target: source.target });
  }
  if (named.size === 0) return;
  const loaded = await context.objects.get([...named.keys()]);
  const visible = new Set((await visibleObjects(context, [...loaded.values()])).map((object) => object.id));
  for (const [id, { field, target }] of named) {
    const object = loaded.get(id);
    if (!object || !visible.has(id) || (target !== undefined && object.type !== target)) {
      throw GraphError.invalidParameter(`The parameter ${field} names no ${target ?? 'node'} you can see`);
    }
  }
}

/** What the deleted nodes of types with counters take back from them: one load, only when the schema keeps any. */
async function takenBackCounters(context: ReadContext, ids: readonly number[]): Promise<WriteOp[]> {
  if (!context.schema.types.some((type) => type.counters)) return [];
  const objects = await context.store.getObjects(ids);
  return [...objects.values()].flatMap((object) => counterOps(context.schema.type(object.type)?.counters, object, -1));
}

/** The nodes these association types list from these ids, one page query per type, at most `limit` of each list. */
export async function listedFrom(context: ReadContext, assocs: readonly string[], ids: readonly number[], limit = MAX_CASCADE): Promise<number[]> {
  if (ids.length === 0) return [];
  const pages = await Promise.all(assocs.map((type) => context.store.getPages({ type, id1s: ids, limit: limit + 1 })));
  return pages.flatMap((byId) => [...byId.values()].flatMap((page) => page.map((row) => row.id2)));
}

/**
 * The node a POST on `object` goes to when the POST flattens: a reply's top-level comment (its
 * parent, when that is of the same type), else the node itself.
 */
async function answeredNode(context: ReadContext, post: EdgePost, object: StoredObject): Promise<StoredObject> {
  const parentId = object.data.parent;
  // A top-level comment hangs directly under its thread; only a reply (or an older comment that
  // does not name its thread) needs its parent loaded to tell.
  if (object.type !== post.creates || typeof parentId !== 'number' || object.data.thread === parentId) return object;
  const parent = (await context.store.getObjects([parentId])).get(parentId);
  return parent?.type === object.type ? parent : object;
}

/** The post, photo or album a conversation hangs under: the node a comment follows, or the node itself. */
export function threadOf(context: ReadContext, object: StoredObject): number {
  return followedId(context.schema.type(object.type)!, object) ?? object.id;
}

/**
 * A write by a person, or by a page through a page token: a token carrying the permission the
 * schema names for it (for a page, the page's counterpart of it). Answers who writes.
 */
export function requirePublisher(context: ReadContext, scope: string): number {
  const { viewer } = context;
  if (viewer.userId === null) throw GraphError.activeTokenRequired();
  const { permissions } = context.schema;
  const needed = permissions.actingScope(viewer.kind, scope);
  if (needed !== permissions.alwaysGranted && !viewer.scopes.has(needed)) throw GraphError.permission(`Requires extended permission: ${needed}`);
  return viewer.userId;
}

/** The data of a node the viewer writes, marked by the package's policy as its author's (a page's, when a page token writes it). */
function asAuthor(context: ReadContext, data: Record<string, unknown>): Record<string, unknown> {
  return context.schema.writePolicy ? context.schema.writePolicy.asAuthor(context, data) : data;
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
  const edge = context.schema.edge(type, edgeName, context.version);
  const named = itemText === undefined || itemText === edge?.alias || edge?.post?.item !== undefined;
  if (!edge || !named) throw GraphError.unknownPath(`/${[edgeName, itemText].filter((part) => part !== undefined).join('/')}`);
  if (!edge.post) throw GraphError.objectNotFound(`${idText}/${edgeName}`, method);
  if (edge.post.item !== undefined && itemText === undefined && method === 'post') {
    throw GraphError.invalidParameter(`A POST to ${edgeName} names the ${edge.post.item} it is for after the edge: /${idText}/${edgeName}/<id>`);
  }
  return edge;
}
