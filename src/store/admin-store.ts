import type { ObjectId } from '../ids.js';
import type { SnapshotInfo } from './snapshots.js';
import type { Undone } from './undo-log.js';

/**
 * The installation around the graph: its small named settings, the declarations `loom schema
 * apply` recorded, the change channel that tells caches when to read again, call counts for
 * rate limits, snapshots, and which media files the data still names.
 */
export interface AdminStore {
  /** A small named setting of the installation (the demo app and user, the database id, …). */
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
  /** Sets the setting only when it is unset and answers the value stored, so racing first writers agree on one. */
  initSetting(key: string, value: string): Promise<string>;

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

  /**
   * Copies the whole store under a name and marks it in the undo log (replacing an older
   * snapshot of that name).
   */
  saveSnapshot(name: string, createdTime: number): Promise<void>;
  /**
   * Marks the store as it is now under a name in the undo log, without a copy (replacing any
   * snapshot of that name): a restore of it undoes what was written since, and nothing else can.
   */
  markSnapshot(name: string): Promise<void>;
  /**
   * Puts the store back as the snapshot holds it, in one transaction, keeping the live settings
   * (see LIVE_SETTING_PREFIX): through the undo log when it reaches the snapshot's mark, at the
   * cost of what was written since, else from the copy. Undefined when no snapshot has that name.
   */
  restoreSnapshot(name: string): Promise<Undone | undefined>;
  listSnapshots(): Promise<SnapshotInfo[]>;
  /** Answers false when no snapshot has that name. */
  deleteSnapshot(name: string): Promise<boolean>;
  /**
   * Which of these storage keys an object's data names, in the graph, in any of its snapshots or
   * in the undo log (what a restore may bring back): the files still wanted (media-keys.ts).
   */
  findMediaKeys(keys: readonly string[]): Promise<Set<string>>;
}

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

/** What `versions` reads. */
export interface StoreVersions {
  /** Moves on whenever an app, a token, a grant, a credential or a live setting changes (see `versions`). */
  auth: number;
}
