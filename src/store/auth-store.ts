import type { ObjectId } from '../ids.js';

/**
 * The apps, the first of the auth records: a change to any of them moves the auth version
 * (AdminStore.versions), so every process's caches of them learn of it.
 */
export interface AppStore {
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
}

/**
 * The auth records of the apps' users: tokens (kept as their hashes), grants, sign-in
 * credentials and OAuth authorization codes. A change to any of them moves the auth version, as
 * one to an app does.
 */
export interface AuthStore {
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
  /** Every user's grants for the app, as getGrants answers them; none when the app holds more than `limit` grants. */
  getAppGrants(appId: ObjectId, limit: number): Promise<Map<ObjectId, Grant[]> | undefined>;

  /** Sets (or replaces) a user's sign-in email and password hash. Fails if another user has the email. */
  setCredentials(credentials: Credentials): Promise<void>;
  findCredentialsByEmail(email: string): Promise<Credentials | undefined>;
  getCredentials(userId: ObjectId): Promise<Credentials | undefined>;

  /** Saves codes (one or many) in one call, one transaction. */
  saveAuthCodes(codes: readonly AuthCode[]): Promise<void>;
  /** Returns the code and deletes it in one step, so a code can be redeemed once only. */
  takeAuthCode(hash: string): Promise<AuthCode | undefined>;
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
  /** The scopes the token carried when it was revoked. */
  scopes: string[];
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
