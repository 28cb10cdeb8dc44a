import type { ObjectId } from '../ids.js';
import type { PageRequest } from './page-request.js';
import type { OnSearchReindex, SearchableType, SearchRequest } from './search.js';
import type { WriteOp, WriteResult } from './write-ops.js';

/**
 * The graph: objects, typed time-ordered associations and their counts (TAO's narrow API), and
 * the full-text index over the objects. It speaks internal integer ids and keyset positions only:
 * no Graph ids or JSON shapes of the API. Every method takes batches, so that an implementation
 * across a network pays one round trip per call.
 */
export interface GraphStore {
  getObjects(ids: readonly ObjectId[]): Promise<Map<ObjectId, StoredObject>>;
  /**
   * getObjects, and the permissions each object and each of their owners granted `appId` (status
   * granted), in the same call: a node read by its id, which shows only if its person uses the
   * app, then costs one round trip, as a page of them does (PageRequest.grantsTo).
   */
  getObjectsWithGrants(ids: readonly ObjectId[], appId: ObjectId): Promise<ObjectsWithGrants>;
  /** One page per id1, in the requested order (newest first by default). Every id1 asked for is a key (an empty list when none). */
  getPages(request: PageRequest): Promise<Map<ObjectId, Association[]>>;
  /**
   * getPages, and the objects its associations point at (each id2's, when it exists) in the same
   * call: across a network, a level of a query then costs one round trip rather than two. The
   * permissions of people `grantsKnown` says the caller knows already may be left out of
   * `grantedScopes`: a store that reads them with a statement of their own reads only the others.
   */
  getPagesWithObjects(request: PageRequest, grantsKnown?: (person: ObjectId) => boolean): Promise<PagesWithObjects>;
  /** Count of associations of `type` from each id1 (0 when none). */
  getCounts(type: string, id1s: readonly ObjectId[]): Promise<Map<ObjectId, number>>;
  /** Which of the (id1, id2) pairs exist for `type`; answered as a set of `${id1}:${id2}`. */
  getExisting(type: string, pairs: ReadonlyArray<readonly [ObjectId, ObjectId]>): Promise<Set<string>>;
  /** Runs the ops in one transaction: all of them take effect or none does. */
  write(ops: readonly WriteOp[]): Promise<WriteResult>;
  /** The objects these keys of the team name within one object type. */
  findDeclaredIds(type: string, keys: readonly string[]): Promise<Map<string, ObjectId>>;

  /**
   * Makes the full-text index hold exactly these types, from these keys. A type whose
   * declaration changed (or that the index never held, as in a database made before it
   * existed) is indexed again from its stored objects, all such types in one pass over the
   * objects, in one transaction; from then on the database indexes each object in the
   * transaction that writes it. `onReindex`, when given, is told how many objects of which types
   * are to be indexed before that pass starts (counting them costs a pass of its own).
   */
  declareSearchable(types: readonly SearchableType[], onReindex?: OnSearchReindex): Promise<void>;
  /** Objects of one type whose indexed text holds every word, by ascending id; answered from the full-text index, never a scan. */
  search(request: SearchRequest): Promise<StoredObject[]>;
}

/**
 * The graph's reads: what a read replica of the database can answer as well as the database
 * itself (Store.replicaReads).
 */
export type GraphReads = Omit<GraphStore, 'write' | 'declareSearchable'>;

export interface StoredObject {
  id: ObjectId;
  /** Schema type name: 'user', 'post', 'comment', 'photo', 'album', 'page', 'application'. */
  type: string;
  /** The user (or page) that owns the object; null for objects nobody owns (users, pages). */
  owner: ObjectId | null;
  /** Unix seconds. */
  createdTime: number;
  updatedTime: number;
  /** The type's stored fields. */
  data: Record<string, unknown>;
}

export interface Association {
  id1: ObjectId;
  type: string;
  id2: ObjectId;
  /** Unix seconds; associations of one (id1, type) are ordered by (time DESC, id2 DESC). */
  time: number;
  data: Record<string, unknown> | null;
}

/** A page read with the objects its associations point at. */
export interface PagesWithObjects {
  pages: Map<ObjectId, Association[]>;
  /** Each id2's object, when it exists. */
  objects: Map<ObjectId, StoredObject>;
  /** With `grantsTo`: the permissions each listed object and each of their owners granted (none for most objects); empty without. */
  grantedScopes: Map<ObjectId, string[]>;
}

/** Objects read with the permissions they and their owners granted an app. */
export interface ObjectsWithGrants {
  objects: Map<ObjectId, StoredObject>;
  /** The permissions each object and each of their owners granted (none for most objects). */
  grantedScopes: Map<ObjectId, string[]>;
}
