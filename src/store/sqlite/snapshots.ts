import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { checkSnapshotName, LIVE_SETTING_PREFIX, type SnapshotInfo } from '../snapshots.js';
import { isLogged, type Undone } from '../undo-log.js';
import { SqliteUndoLog, type LogPosition } from './undo-log.js';

/**
 * SQLite snapshots are database files beside the store's own (`<file>.snapshots/<name>.db`),
 * written by `VACUUM INTO` (a consistent copy taken while others keep writing), and marks in the
 * undo log (undo-log.ts). A restore goes back through the log when it reaches the mark, at the
 * cost of what was written since; otherwise it copies every table back in one transaction.
 * The state a server started with is a mark alone.
 */
export class SqliteSnapshots {
  private readonly undo: SqliteUndoLog;

  constructor(private readonly db: Database.Database) {
    this.undo = new SqliteUndoLog(db);
  }

  private get directory(): string {
    return `${this.db.name}.snapshots`;
  }

  private file(name: string): string {
    checkSnapshotName(name);
    return join(this.directory, `${name}.db`);
  }

  save(name: string, createdTime: number): void {
    const target = this.file(name);
    mkdirSync(this.directory, { recursive: true });
    // A name of its own: servers started together each record the start state, and the last
    // whole copy to be renamed into place wins.
    const partial = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.partial`;
    // Running before the copy, the log has the copy's state at a position the copy itself holds.
    this.undo.start();
    let position: LogPosition;
    try {
      this.db.prepare('VACUUM INTO ?').run(partial);
      const copy = new Database(partial);
      try {
        const log = new SqliteUndoLog(copy);
        position = log.here();
        log.drop();
        copy.exec('CREATE TABLE loom_snapshot (name TEXT NOT NULL, created_time INTEGER NOT NULL)');
        copy.prepare('INSERT INTO loom_snapshot (name, created_time) VALUES (?, ?)').run(name, createdTime);
      } finally {
        copy.close();
      }
      // Taking the same name again replaces the old snapshot only once the new one is whole.
      renameSync(partial, target);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    this.undo.markAt(name, position);
  }

  /** Marks the state as it is now under the name, without a copy (replacing any snapshot of that name). */
  mark(name: string): void {
    this.undo.mark(name, false);
    rmSync(this.file(name), { force: true });
  }

  /** Undefined when there is no snapshot of that name. */
  restore(name: string): Undone | undefined {
    return this.undo.goBack(name) ?? this.restoreCopy(name);
  }

  private restoreCopy(name: string): Undone | undefined {
    const source = this.file(name);
    if (!existsSync(source)) return undefined;
    this.db.prepare('ATTACH DATABASE ? AS snapshot').run(source);
    try {
      const tables = this.db
        .prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .pluck()
        .all() as string[];
      this.db.transaction(() => {
        // Rows come back in any order; their references need only hold once all are back.
        this.db.pragma('defer_foreign_keys = ON');
        // Not the auth version: the triggers of the rows copied here move it on, so every process
        // drops its cached tokens. Nor the full-text index: the objects' triggers rebuild it.
        // Every row written here is logged, so each mark stays one the log reaches.
        for (const table of tables.filter(isLogged)) {
          const quoted = `"${table.replace(/"/g, '""')}"`;
          const keep = table === 'settings' ? ` WHERE key NOT LIKE '${LIVE_SETTING_PREFIX}%'` : '';
          this.db.exec(`DELETE FROM main.${quoted}${keep}`);
          this.db.exec(`INSERT INTO main.${quoted} SELECT * FROM snapshot.${quoted}${keep}`);
        }
        // The id sequences go back too, so a restored graph hands out the same new ids again;
        // the log's own goes on.
        this.db.exec(`DELETE FROM main.sqlite_sequence WHERE name <> 'undo_log'`);
        this.db.exec(`INSERT INTO main.sqlite_sequence SELECT * FROM snapshot.sqlite_sequence WHERE name <> 'undo_log'`);
        // From here on the log reaches the restored state, as from a save.
        this.undo.mark(name, true);
      }).immediate();
    } finally {
      this.db.exec('DETACH DATABASE snapshot');
    }
    return { mediaKeys: [] };
  }

  /** The snapshot files there are now. */
  files(): string[] {
    if (!existsSync(this.directory)) return [];
    return readdirSync(this.directory)
      .filter((file) => file.endsWith('.db'))
      .map((file) => join(this.directory, file));
  }

  list(): SnapshotInfo[] {
    const names = this.files().map((file) => basename(file, '.db'));
    return names.sort().map((name) => {
      const copy = new Database(this.file(name), { readonly: true });
      try {
        const row = copy.prepare('SELECT created_time AS createdTime FROM loom_snapshot').get() as { createdTime: number };
        return { name, createdTime: row.createdTime };
      } finally {
        copy.close();
      }
    });
  }

  delete(name: string): boolean {
    const file = this.file(name);
    const copied = existsSync(file);
    rmSync(file, { force: true });
    return this.undo.forget(name) || copied;
  }

  /** Which of these keys an old row in the undo log points at: files a mark may bring back. */
  findLoggedMediaKeys(keys: readonly string[]): string[] {
    return this.undo.findMediaKeys(keys);
  }
}
