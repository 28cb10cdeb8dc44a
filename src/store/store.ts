import type { MediaKeySearch } from './media-keys.js';
import type { RecordKey, RecordKind, StoreRecord } from './records.js';
import type { SearchableType, SearchRequest } from './search.js';
import type { SnapshotInfo } from './snapshots.js';
import type { WebhookStore } from './webhook-store.js';
import type { ObjectId } from '../ids.js';

/**
 * The store: objects, typed time-ordered associations and their counts (TAO's narrow API),
 * plus the few auth tables. It speaks internal integer ids and keyset positions only: no Graph
 * ids, tokens in clear, or JSON shapes of the API. Every method is asynchronous and takes
 * batches so that an implementation across a network pays one round trip per call.
 */

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

/** A keyset position inside one association list. */
export interface Position {
  time: number;
  id2: ObjectId;
}

export interface PageRequest {
  type: string;
  id1s: readonly ObjectId[];
  /** Most associations to return per id1 (callers ask one more than they show, to learn if more exist). */
  limit: number;
  /** Only associations strictly after (older than) this position. */
  after?: Position;
  /** Only associations strictly before (newer than) this position; the page is the one just before it. */
  before?: Position;
  /** Only associations with time >= since. */
  since?: number;
  /** Only associations with time <= until. */
  until?: number;
  /**
   * 'newest' (the default) lists (time DESC, id2 DESC); 'oldest' lists the reverse. `after` and
   * `before` always mean "further along" and "further back" in the chosen order.
   */
  order?: 'newest' | 'oldest';
  /**
   * Merge into each id1's list the associations of `type` from every node id1 lists under this
   * association type (a news feed: the posts of a person and of each of their friends). Each row
   * keeps its own id1; every id2 appears once, as each type's list holds it once.
   */
  through?: Through;
  /** Keep only associations whose id2 granted `appId` the permission `scope` (status granted). */
  id2GrantedTo?: { appId: ObjectId; scope: string };
  /**
   * With the objects (getPagesWithObjects), also the permissions each listed object and each
   * listed object's owner granted this app (status granted). Whoever shows people, or what people
   * wrote, checks whether they used the app and what they let it read: asked along with the
   * page, that costs no round trip of its own.
   */
  grantsTo?: ObjectId;
  /**
   * Per id1, where its page reads on from, in place of `after` (or, reading backwards with
   * `before`, of `before`): only rows strictly further along than this position. A page that an
   * earlier read of the same list left short goes on from that read's last row. When given, it
   * names every id1.
   */
  resumeAt?: ReadonlyMap<ObjectId, Position>;
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

/** The nodes whose lists a merged page takes in besides id1's own. */
export interface Through {
  /** The nodes id1 lists under this association type. */
  type: string;
  /** Only those of them that granted `appId` the permission `scope` (status granted). */
  grantedTo?: { appId: ObjectId; scope: string };
}

export interface NewObject {
  type: string;
  owner: ObjectId | null;
  createdTime: number;
  updatedTime?: number;
  data: Record<string, unknown>;
}

/** A reference to an object created earlier in the same write batch: its index in `ops`. */
export interface Ref {
  ref: number;
}
export type IdOrRef = ObjectId | Ref;

export type WriteOp =
  /**
   * `refFields` names data keys to fill with the id (as a decimal string) of an object created
   * earlier in the batch: a photo's story post carries the photo's id in `object_id`.
   */
  | { op: 'createObject'; object: NewObject; refFields?: Record<string, Ref> }
  | { op: 'updateObject'; id: ObjectId; data: Record<string, unknown>; updatedTime: number }
  /** Removes the object, every association from or to it, and its counts; fixes other counts. */
  | { op: 'deleteObject'; id: ObjectId }
  /** Idempotent: adding an existing (id1, type, id2) changes nothing and counts stay exact. */
  | { op: 'addAssoc'; type: string; id1: IdOrRef; id2: IdOrRef; time: number; data?: Record<string, unknown> | null }
  | { op: 'removeAssoc'; type: string; id1: ObjectId; id2: ObjectId }
  /**
   * Removes a person and everything that is theirs, each object as deleteObject would: the
   * objects they own, the objects those list under the `cascade` association types (others'
   * comments on their posts), the person, and their grants, tokens (revoked ones too),
   * credentials and authorization codes under every app. Reports whether the person existed.
   */
  | { op: 'deleteUser'; id: ObjectId; cascade: readonly string[] }
  /**
   * Fails the whole batch with a CountLimitError when `id1` has more than `max` associations of
   * `type` at this point of the batch, counting those the batch added before it. Placed after the
   * batch's addAssoc of a new item to that list, it holds against simultaneous batches doing the
   * same: each sees the others' committed adds, so together they never exceed `max`.
   */
  | { op: 'checkCount'; type: string; id1: ObjectId; max: number }
  /** setCredentials inside a batch, for a user the batch may create. */
  | { op: 'setCredentials'; userId: IdOrRef; email: string; passwordHash: string }
  /** setGrants of one user inside a batch, for a user the batch may create. */
  | { op: 'setGrants'; appId: ObjectId; userId: IdOrRef; grants: readonly Grant[] }
  /** saveToken inside a batch, for a user the batch may create. */
  | { op: 'saveToken'; token: Omit<TokenRecord, 'userId'> & { userId: IdOrRef | null } }
  /**
   * Puts a change in the webhook outbox, in the same transaction as the change: `field` of
   * `subject` changed at `time` (for one app only when `appId` is set).
   */
  | { op: 'recordChange'; subject: IdOrRef; field: string; time: number; appId?: ObjectId }
  /** Adds `delta` (which may be negative) to the count `(id1, type)`: a declared sum kept beside an association count. */
  | { op: 'adjustCount'; type: string; id1: IdOrRef; delta: number }
  /**
   * Names the object by the team's own key within its object type (replacing what the key named
   * before). Deleting the object drops its keys.
   */
  | { op: 'setDeclaredKey'; type: string; key: string; id: IdOrRef };

/** A declaration recorded by `loom schema apply`. */
export interface SchemaVersionRecord {
  /** 1 for the first apply, then one more each time. */
  version: number;
  name: string;
  hash: string;
  /** The merged declaration as JSON text. */
  text: string;
  /** The pinned storage keys as JSON text. */
  storage: string;
  /** Absolute path of the file applied, so a code module named relative to it is found again. */
  source: string;
  /** The app serving the schema, created by the first apply. */
  appId: ObjectId;
  appliedTime: number;
}

/** A checkCount op found its list full; nothing of the batch was written. */
export class CountLimitError extends Error {
  constructor(
    readonly type: string,
    readonly id1: ObjectId,
    readonly max: number,
  ) {
    super(`Object ${id1} would have more than ${max} associations of type ${type}`);
    this.name = 'CountLimitError';
  }
}

export interface WriteResult {
  /** For each op: the created object's id (createObject), or whether anything changed. */
  results: Array<ObjectId | boolean>;
}

export interface AppRecord {
  id: ObjectId;
  name: string;
  secret: string;
  /** Key of the app's app-scoped user id mapping. */
  idKey: string;
  /**
   * Which slot of the scoped-id space the app's user ids fall in: the slot can be read off an id,
   * so the apps an id may belong to are found by this (indexed) number. 0 for apps made before slots.
   */
  idTag: number;
  requireProof: boolean;
  businessId: ObjectId | null;
  createdTime: number;
  /**
   * Where the sign-in dialog may send people back to this app: absolute http(s) addresses
   * without query or fragment, each allowing itself and the paths below it.
   */
  redirectUris: string[];
  /** The API version the app's unversioned calls are answered in (`v2.0`…); null: the server's default. */
  apiVersion: string | null;
}

/**
 * Object ids the store hands out stay below this bound (app-scoped user ids are a permutation
 * of them). Larger ids are only ever chosen by callers (an app created with a fixed id) and never
 * move the id sequence.
 */
export const SEQUENCE_ID_LIMIT = 2 ** 40;

export interface NewApp {
  /** A fixed id at or above SEQUENCE_ID_LIMIT, chosen by the caller; the next id of the sequence when absent. */
  id?: ObjectId;
  name: string;
  secret: string;
  idKey: string;
  /** 0 when absent. */
  idTag?: number;
  requireProof?: boolean;
  businessId?: ObjectId | null;
  createdTime: number;
  /** None when absent. */
  redirectUris?: readonly string[];
  /** The server's default when absent. */
  apiVersion?: string | null;
}

/** createApp was given a fixed id that an object, or a deleted app, already has. */
export class IdTakenError extends Error {
  constructor(readonly id: ObjectId) {
    super(`The id ${id} is already taken`);
    this.name = 'IdTakenError';
  }
}

/** What updateApp changes; absent fields stay as they are. */
export interface AppChanges {
  secret?: string;
  requireProof?: boolean;
  businessId?: ObjectId | null;
  redirectUris?: readonly string[];
  /** Merged into the app's application object (its name and other public settings); a null value removes a key. */
  data?: Record<string, unknown>;
}

export interface TokenRecord {
  /** SHA-256 hex of the token; the token itself is never stored. */
  hash: string;
  kind: 'user' | 'app';
  appId: ObjectId;
  userId: ObjectId | null;
  scopes: string[];
  issuedAt: number;
  /** Unix seconds; 0 means it never expires. */
  expiresAt: number;
  /** For a page token: the page it acts as (its `userId` is the person who administers the page). */
  pageId?: ObjectId | null;
}

/** What remains of a token revoked by de-authorising its app: enough to say why it no longer works. */
export interface RevokedToken {
  hash: string;
  appId: ObjectId;
  userId: ObjectId;
  /** The revoked token's own expiry (0: never); the record may be dropped once it has passed. */
  expiresAt: number;
}

export type GrantStatus = 'granted' | 'declined';
export interface Grant {
  scope: string;
  status: GrantStatus;
}

export interface GrantUpdateOptions {
  onlyExisting?: boolean;
  changesAt?: number;
}

export interface UserGrants {
  userId: ObjectId;
  grants: readonly Grant[];
}

/** How a person signs in: one email (stored lower-cased) and a slow hash of the password. */
export interface Credentials {
  userId: ObjectId;
  email: string;
  passwordHash: string;
}

/** A single-use OAuth authorization code, stored as its SHA-256 like tokens are. */
export interface AuthCode {
  hash: string;
  appId: ObjectId;
  userId: ObjectId;
  redirectUri: string;
  scopes: string[];
  /** Unix seconds. */
  expiresAt: number;
}

/** What `Store.versions` reads: the auth version, and where the store can tell it cheaply, a stamp of all its data. */
export interface StoreVersions {
  /** Moves on whenever an app, a token, a grant, a credential or a live setting changes (see `versions`). */
  auth: number;
  /**
   * Equal stamps mean that nothing the store holds changed in between, through this store or any
   * other process: whatever was read under one stamp may be served again while it holds.
   * Undefined where telling would cost a round trip of its own (PostgreSQL).
   */
  data: string | undefined;
}

export interface Store extends MediaKeySearch {
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

  /**
   * Makes the full-text index hold exactly these types, from these keys. A type whose
   * declaration changed (or that the index never held, as in a database made before it
   * existed) is indexed again from its stored objects, in one transaction; from then on the
   * database indexes each object in the transaction that writes it.
   */
  declareSearchable(types: readonly SearchableType[]): Promise<void>;
  /** Objects of one type whose indexed text holds every word, by ascending id; answered from the full-text index, never a scan. */
  search(request: SearchRequest): Promise<StoredObject[]>;

  createApp(app: NewApp): Promise<AppRecord>;
  getApps(ids: readonly ObjectId[]): Promise<Map<ObjectId, AppRecord>>;
  listApps(): Promise<AppRecord[]>;
  /** The apps whose idTag is this one. */
  findAppsByIdTag(idTag: number): Promise<AppRecord[]>;
  /**
   * Changes an app in one transaction (`now` becomes its object's updated time when its data
   * changes); answers the app as it now is, or undefined when there is no such app.
   */
  updateApp(id: ObjectId, changes: AppChanges, now: number): Promise<AppRecord | undefined>;
  /**
   * Deletes an app in one transaction: its application object with the associations from and to
   * it, its grants, tokens and authorization codes. A tombstone of its id stays (getDeletedApps),
   * and so does a RevokedToken for each of its user tokens, so that using them can be answered
   * for. Reports whether the app existed.
   */
  deleteApp(id: ObjectId, now: number): Promise<boolean>;
  /** Which of these ids belonged to an app that was deleted. */
  getDeletedApps(ids: readonly ObjectId[]): Promise<Set<ObjectId>>;

  /** Saves tokens (one or many) in one call, one transaction; a hash saved again replaces its record. */
  saveTokens(tokens: readonly TokenRecord[]): Promise<void>;
  findToken(hash: string): Promise<TokenRecord | undefined>;
  deleteTokens(appId: ObjectId, userId: ObjectId): Promise<void>;
  /**
   * Deletes the user's tokens for the app like deleteTokens, but keeps a RevokedToken for each,
   * in one transaction; revoked records whose token would have expired by `now` are dropped.
   */
  revokeTokens(appId: ObjectId, userId: ObjectId, now: number): Promise<void>;
  findRevokedToken(hash: string): Promise<RevokedToken | undefined>;

  /** Replaces each listed user's grants for the app, entry after entry (a user listed twice keeps the last), in one transaction. */
  setGrants(appId: ObjectId, entries: readonly UserGrants[]): Promise<void>;
  /**
   * Sets the status of some of one user's grants for the app in one transaction, leaving their
   * other grants as they are, and answers all of the user's grants for the app afterwards. With
   * `onlyExisting`, a scope the user has no grant for (neither granted nor declined) stays absent.
   * With `changesAt`, each scope whose status this call changes goes into the webhook outbox (as
   * recordChange would put it, for this app, at that time) in the same transaction.
   */
  updateGrants(appId: ObjectId, userId: ObjectId, changes: readonly Grant[], options?: GrantUpdateOptions): Promise<Grant[]>;
  /** Each user's grants for the app (users without any are absent). */
  getGrants(appId: ObjectId, userIds: readonly ObjectId[]): Promise<Map<ObjectId, Grant[]>>;

  /** Sets (or replaces) a user's sign-in email and password hash. Fails if another user has the email. */
  setCredentials(credentials: Credentials): Promise<void>;
  findCredentialsByEmail(email: string): Promise<Credentials | undefined>;
  getCredentials(userId: ObjectId): Promise<Credentials | undefined>;

  /** Saves codes (one or many) in one call, one transaction. */
  saveAuthCodes(codes: readonly AuthCode[]): Promise<void>;
  /** Returns the code and deletes it in one step, so a code can be redeemed once only. */
  takeAuthCode(hash: string): Promise<AuthCode | undefined>;

  /** Small named settings of the installation (the demo app and user, the schema version, …). */
  /** The declaration `loom schema apply` recorded last; undefined before the first. */
  latestSchemaVersion(): Promise<SchemaVersionRecord | undefined>;
  /** Records an applied declaration as the version after the latest; fails if another apply took that number first. */
  recordSchemaVersion(record: Omit<SchemaVersionRecord, 'version'>): Promise<SchemaVersionRecord>;
  /**
   * Runs `work` (read the applied version, record the next) while no other process does the same:
   * concurrent applies take turns, each building on the version the one before recorded. SQLite
   * runs it as one immediate transaction on the store's connection, so it is for a process that
   * does nothing else with the store meanwhile; PostgreSQL holds an advisory lock for it.
   */
  changeSchemaAlone<T>(work: () => Promise<T>): Promise<T>;
  /** The objects these keys of the team name within one object type. */
  findDeclaredIds(type: string, keys: readonly string[]): Promise<Map<string, ObjectId>>;

  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
  /** Sets the setting only when it is unset and answers the value stored, so racing first writers agree on one. */
  initSetting(key: string, value: string): Promise<string>;

  /** Export: up to `limit` records of one kind in key order, after the record whose key is `after`. */
  scanRecords(kind: RecordKind, after: RecordKey | undefined, limit: number): Promise<StoreRecord[]>;
  /** How many records of one kind the store holds. */
  countRecords(kind: RecordKind): Promise<number>;
  /**
   * Import: writes records as they are, ids included, in one transaction. A key that is already
   * present is an error; an idSequence record only ever moves the id sequence forwards.
   */
  loadRecords(records: readonly StoreRecord[]): Promise<void>;
  /**
   * Import of a large graph into an empty store: `fill` loads records (as loadRecords, each call
   * its own transaction) while the secondary indexes are set aside; they are built once at the
   * end, from sorted data, far faster than kept up to date row by row. A load cut short leaves a
   * store to throw away, as any partial import does.
   */
  bulkLoad(fill: (load: (records: readonly StoreRecord[]) => Promise<void>) => Promise<void>): Promise<void>;

  /**
   * A number that moves on whenever an app, a token, a grant or a credential changes, through
   * this store or any other process on the same database, and never otherwise goes back to a
   * value it had: what a cache learnt of a token holds while the number stays the same. (The
   * databases' triggers on those tables move it, so every revocation path reaches the caches.)
   * A change to a live setting (LIVE_SETTING_PREFIX) moves it too: the state every process of a
   * server shares needs reading again only when it moved.
   */
  versions(): Promise<StoreVersions>;

  /**
   * Counts one call for each subject (an app, one user of an app, …) in `minute` and answers
   * each subject's calls in the minutes from `since` to `minute`, in one transaction; the
   * subject's minutes before `since` are dropped.
   */
  countCalls(subjects: readonly string[], minute: number, since: number): Promise<Map<string, number>>;
  /** How many people granted the app anything: its users, on which its call budget grows. */
  countAppUsers(appId: ObjectId): Promise<number>;

  /** Copies the whole store under a name (replacing an older snapshot of that name). */
  saveSnapshot(name: string, createdTime: number): Promise<void>;
  /**
   * Puts the store back as the snapshot holds it, in one transaction, keeping the live settings
   * (see LIVE_SETTING_PREFIX). Answers false when no snapshot has that name.
   */
  restoreSnapshot(name: string): Promise<boolean>;
  listSnapshots(): Promise<SnapshotInfo[]>;
  /** Answers false when no snapshot has that name. */
  deleteSnapshot(name: string): Promise<boolean>;

  /** Webhook subscriptions, the outbox of changes and the delivery queue. */
  readonly webhooks: WebhookStore;

  close(): Promise<void>;
}
