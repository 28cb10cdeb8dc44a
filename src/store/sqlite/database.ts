import type Database from 'better-sqlite3';
import { DecodedData } from '../decoded-data.js';
import { CommitWatch } from './commit-watch.js';
import { ReadCache } from './read-cache.js';
import { SqliteRowWrites } from './row-writes.js';
import { prepareStatements, type Statements } from './statements.js';
import { SqliteWebhooks } from './webhook-queue.js';

/**
 * What the roles of the SQLite store share: the connection and its prepared statements, the
 * decoded data of objects read lately, the row writes that the graph's write batches and the auth
 * records both make, the webhook tables, whose outbox a change of grants writes to in its own
 * transaction, and the watch on commits with what was read since the last one.
 */
export class SqliteDatabase {
  readonly statements: Statements;
  readonly decodedData = new DecodedData();
  readonly writes: SqliteRowWrites;
  readonly webhooks: SqliteWebhooks;
  /** Runs `work` in one transaction, so that the reads inside it see one snapshot of the database. */
  readonly inSnapshot: (work: () => void) => void;
  /** Whether any process may have committed since an earlier look. */
  readonly commits: CommitWatch;
  /** Objects and counts read while nothing has been committed since. */
  readonly readCache: ReadCache;

  constructor(readonly db: Database.Database) {
    this.statements = prepareStatements(db);
    this.writes = new SqliteRowWrites(this.statements);
    this.webhooks = new SqliteWebhooks(db);
    this.inSnapshot = db.transaction((work: () => void) => work());
    this.commits = new CommitWatch(db);
    this.readCache = new ReadCache(db, this.commits);
  }
}
