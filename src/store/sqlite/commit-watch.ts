import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The WAL-index header: the first 136 bytes of the `-shm` file (two copies of the 48-byte header,
 * then the checkpoint information). See https://www.sqlite.org/walformat.html ("The WAL-Index Header").
 */
const HEADER_BYTES = 136;

/**
 * Tells, for one read of a few bytes, whether any connection of any process may have committed
 * since an earlier look. SQLite itself tells whether its snapshot is still current by comparing
 * the WAL-index header in the `-shm` file: every commit rewrites it, and so does a reset of the WAL
 * after a checkpoint. Reading it costs one system call, where `PRAGMA data_version` begins and
 * ends a read transaction (two file locks, each a call of its own) on every request.
 *
 * A header read while a writer rewrites it only looks changed, which costs a real check, never a
 * missed change. A database with no `-shm` file (in memory, or not in WAL mode) may have changed
 * at every look. The file outlives nothing it watches: while this connection is open, SQLite keeps it.
 */
export class CommitWatch {
  private readonly fd: number | undefined;
  private readonly last = Buffer.alloc(HEADER_BYTES);
  private readonly now = Buffer.alloc(HEADER_BYTES);
  private count = 0;

  constructor(db: Database.Database) {
    this.fd = shmFile(db);
  }

  /**
   * A number that moves on whenever something may have been committed since the last look: what
   * was read under one generation may be used again while it holds. Look before reading what a
   * commit would change: a commit after the look and before that read shows at the next look.
   */
  generation(): number {
    if (this.fd === undefined) return ++this.count;
    const read = readSync(this.fd, this.now, 0, HEADER_BYTES, 0);
    if (read === HEADER_BYTES && this.now.equals(this.last)) return this.count;
    this.now.copy(this.last);
    // A short read (a file being made) matches nothing: the next look moves on again.
    if (read !== HEADER_BYTES) this.last.fill(0xff);
    return ++this.count;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

function shmFile(db: Database.Database): number | undefined {
  if (db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  try {
    return openSync(`${db.name}-shm`, 'r');
  } catch {
    return undefined;
  }
}
