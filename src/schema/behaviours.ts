/**
 * The hooks through which a package's code (the Graph API's, or a team's) answers what the
 * generic engine cannot: edges that are no association list, items made from the association
 * itself, POSTs with a protocol of their own. A declaration names them; the compiler puts the
 * package's functions into the compiled types, and the engine calls them, knowing no package.
 */
import type { ObjectId, Json } from '../ids.js';
import type { Selection } from '../query/selection.js';
import type { StoredNode } from './stored-node.js';
import type { BooleanResult } from './versions.js';

/**
 * The request as a behaviour sees it. schema/ knows nothing of the engine: the engine's read
 * context fills this in by declaration merging (engine/request/context.ts), so a behaviour is handed the
 * very context every engine function gets, and may call the engine with it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the engine, as said above
export interface BehaviourContext {}

/** An association as a behaviour reads it; the store's rows have these fields. */
export interface StoredLink {
  id1: ObjectId;
  id2: ObjectId;
  /** Unix seconds. */
  time: number;
  data: Record<string, unknown> | null;
}

/**
 * Whom an object shows to by its own data, as the package reads it (a post's privacy setting):
 * anyone, its owner alone, or its owner and the people its visibility's `circle` association links
 * the owner to (the owner's friends).
 */
export type AudienceOf = (object: StoredNode) => 'everyone' | 'owner' | 'circle';

/** An answer that is not a body but a pointer elsewhere: a picture edge sends the client to the image. */
export class Redirect {
  constructor(readonly location: string) {}
}

/** An edge answered by code rather than by an association list. */
export interface SpecialEdge {
  /** Each parent's collection; `nested`: an empty collection inside a node is left out (undefined). */
  load(context: BehaviourContext, parents: readonly StoredNode[], nested: boolean): Promise<Map<ObjectId, Json | undefined>>;
  /** The answer to the edge's own path (`GET /<id>/<edge>`), whoever asks, when it is not the collection. */
  answerPath?(context: BehaviourContext, params: Record<string, string>): Json | Redirect;
}

/** Items of a page of an edge made from the association rows rather than shown as the nodes they point at. */
export interface EdgeItems {
  /**
   * Each item shows the node its row points at (in a shape of its own): the page brings those
   * nodes along, and only rows whose node the viewer may see show. Otherwise every row shows.
   */
  showsNodes: boolean;
  /**
   * The item of each row of one level, all rendered at once. `children`: the fields asked for;
   * `nodes`: the nodes the rows point at that the viewer may see (empty unless `showsNodes`).
   */
  render(
    context: BehaviourContext,
    rows: readonly StoredLink[],
    children: Selection[] | undefined,
    nodes: ReadonlyMap<ObjectId, StoredNode>,
  ): Promise<(row: StoredLink) => Json | undefined>;
}

/**
 * A POST whose parameters say more than the data of the node it creates (a post's `place` and
 * `tags`): the data to create the node from, and associations from other nodes to the created one,
 * written in the same transaction.
 */
export type ResolvePost = (
  context: BehaviourContext,
  author: ObjectId,
  data: Record<string, unknown>,
) => Promise<{ data: Record<string, unknown>; linksToCreated: Array<{ assoc: string; from: ObjectId }> }>;

/**
 * Who may POST on a node by the package's own rules (a person's wall takes posts from their
 * friends, a group's from its members): refuses the author with the GraphError that says why.
 */
export type PostCheck = (context: BehaviourContext, parent: StoredNode, author: ObjectId) => Promise<void>;

/** The data of the node announcing what a POST created, from the POST's parameters, the created node's data and the app it is made through; undefined for none. */
export type StoryData = (params: Record<string, unknown>, created: Record<string, unknown>, app: ObjectId) => Record<string, unknown> | undefined;

/** A POST an app makes with its own token, answered whole by the package's code (`parent`: the node posted to). */
export type AppPost = (context: BehaviourContext, parent: StoredNode, params: Record<string, unknown>) => Promise<Json>;

/** What an app token may change or delete beyond what a person may (`POST /<id>`, `DELETE /<id>`). */
export interface AppWrites {
  update(context: BehaviourContext, idText: string, params: Record<string, string>): Promise<Json | BooleanResult>;
  delete(context: BehaviourContext, idText: string): Promise<Json | BooleanResult>;
}

/**
 * A package's own rules for what people write, where a type declares no write rule of the
 * vocabulary (the Graph API's: walls, conversations, pages that write as themselves). Without
 * one, such a node is changed or deleted by nobody and what a person writes is kept as given.
 */
export interface WritePolicy {
  /** Refuses, with the GraphError that says why, unless the viewer may change this node (`POST /<id>`). */
  update(context: BehaviourContext, node: StoredNode): Promise<void>;
  /** Refuses unless the viewer may delete this node (`DELETE /<id>`). */
  delete(context: BehaviourContext, node: StoredNode): Promise<void>;
  /**
   * The nodes that go with these deleted ones beyond what their types name (the comments on
   * them and the replies to those), listed first to last in the order they are to be deleted;
   * at most `limit` of each list are read, so a longer answer says there are too many.
   */
  deletedWith(context: BehaviourContext, ids: readonly ObjectId[], limit: number): Promise<ObjectId[]>;
  /** The data of a node the viewer writes, as the package marks who wrote it (a page writes as itself). */
  asAuthor(context: BehaviourContext, data: Record<string, unknown>): Record<string, unknown>;
  /**
   * Whether a node acting as itself wrote this one, by the mark `asAuthor` left (a page): no
   * person's grants or app use govern it, and its compound id names the writer by its plain id.
   */
  writtenAsNode(object: StoredNode): boolean;
}

