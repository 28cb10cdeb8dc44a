import { GraphError } from '../../errors.js';
import type { IdForm, NodeTypeDef } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import { writtenAsNode } from '../../schema/authors.js';
import { visibleObjects } from '../access/visibility.js';
import { allGrantsKnown, countGrantChecks, rememberGrantedScopes } from '../access/person-grants.js';

/** A node id as a client wrote it, decoded: which object, in which id form, owned by whom. */
interface NodeRef {
  id: number;
  form: IdForm;
  /** For compound post ids: the owner named by the prefix. */
  owner?: number;
  /** For compound post ids: whether the prefix is a plain id (of a node that wrote as itself, a page) rather than a person's scoped one. */
  plainOwner?: boolean;
}

/** The id a client uses for this object: app-scoped for users, compound for posts, plain otherwise. */
export function externalId(context: ReadContext, type: NodeTypeDef, object: StoredObject): string {
  const ids = context.viewer.ids;
  switch (type.idForm) {
    case 'user':
      return ids.scope(object.id);
    case 'post':
      // What a node wrote as itself (a page) names it by its plain id; a person, by their scoped one.
      return `${writtenAsNode(context.schema.writePolicy, object) ? String(object.owner ?? 0) : ids.scope(object.owner ?? 0)}_${object.id}`;
    case 'plain':
      return String(object.id);
  }
}

function parseNodeId(context: ReadContext, text: string): NodeRef | undefined {
  const ids = context.viewer.ids;
  if (text === 'me') {
    if (context.viewer.userId === null) throw GraphError.activeTokenRequired();
    // With a page token, `me` is the page.
    return { id: context.viewer.userId, form: context.viewer.kind === 'page' ? 'plain' : 'user' };
  }
  // The app the token belongs to, as the real service answers `/app`.
  if (text === 'app') return { id: context.viewer.app.id, form: 'plain' };
  const compound = /^(\d{1,16})_(\d{1,15})$/.exec(text);
  if (compound) {
    const owner = ids.unscope(compound[1]!);
    // A prefix that is no person's scoped id may be the plain id of the page that wrote the post.
    if (owner === undefined) return { id: Number(compound[2]), form: 'post', owner: Number(compound[1]), plainOwner: true };
    return { id: Number(compound[2]), form: 'post', owner };
  }
  if (/^\d{1,16}$/.test(text)) {
    const user = ids.unscope(text);
    if (user !== undefined) return { id: user, form: 'user' };
    return Number.isSafeInteger(Number(text)) ? { id: Number(text), form: 'plain' } : undefined;
  }
  return undefined;
}

/**
 * The node `me` names for a person's token, known before it is read: the person, of the
 * principal type. Reads that hang from it may then start alongside it.
 */
export function knownRoot(context: ReadContext, text: string): { id: number; type: NodeTypeDef } | undefined {
  if (text !== 'me' || context.viewer.kind !== 'user' || context.viewer.userId === null) return undefined;
  const type = context.schema.type(context.schema.principal);
  return type?.idForm === 'user' ? { id: context.viewer.userId, type } : undefined;
}

/** Loads the node a path names, or fails the way the real service does for ids it cannot serve. */
export async function loadRoot(
  context: ReadContext,
  text: string,
  method: 'get' | 'post' | 'delete' = 'get',
): Promise<{ object: StoredObject; type: NodeTypeDef }> {
  return (await loadRoots(context, [text], method))[0]!;
}

/**
 * Loads the nodes of several ids (`ids=a,b`) with one object load and one visibility check, in
 * the order given. The first id that cannot be served fails them all, with the error it gets alone.
 * A person who never used the app is read like anyone else: what of them shows is access.ts's.
 */
export async function loadRoots(
  context: ReadContext,
  texts: readonly string[],
  method: 'get' | 'post' | 'delete' = 'get',
): Promise<{ object: StoredObject; type: NodeTypeDef }[]> {
  const refs = texts.map((text) => {
    if (!/^[\w.-]{1,128}$/.test(text)) throw GraphError.objectNotFound(text.slice(0, 128), method);
    const ref = parseNodeId(context, text);
    if (ref) return ref;
    if (/^\d/.test(text)) throw GraphError.objectNotFound(text, method);
    throw new GraphError(803, `(#803) Some of the aliases you requested do not exist: ${text}`, {
      status: 404,
      authenticate: 'not_found',
    });
  });
  const loaded = await loadNodes(context, [...new Set(refs.map((ref) => ref.id))]);
  const candidates = [...loaded.values()];
  const visible = new Set((await visibleObjects(context, candidates)).map((object) => object.id));
  return refs.map((ref, index) => {
    const object = loaded.get(ref.id);
    const type = object && context.schema.type(object.type);
    const sameForm =
      type?.idForm === ref.form && (ref.owner === undefined || (ref.owner === object?.owner && (ref.plainOwner ?? false) === writtenAsNode(context.schema.writePolicy, object)));
    if (!object || !type || !sameForm || !visible.has(object.id)) throw GraphError.objectNotFound(texts[index]!, method);
    return { object, type };
  });
}

/**
 * The objects of these ids. Whether another person's node shows depends on their use of the app
 * (theirs, or its owner's), which comes along with it; the viewer's own node needs none, nor
 * does a request that knows everyone's grants already.
 */
async function loadNodes(context: ReadContext, ids: readonly number[]): Promise<Map<number, StoredObject>> {
  if (ids.every((id) => id === context.viewer.userId) || allGrantsKnown(context)) return context.store.getObjects(ids);
  const { objects, grantedScopes } = await context.store.getObjectsWithGrants(ids, context.viewer.app.id);
  countGrantChecks(context, objects.size);
  rememberGrantedScopes(context, grantedScopes);
  return objects;
}
