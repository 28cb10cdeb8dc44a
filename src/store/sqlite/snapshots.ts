import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { checkSnapshotName, LIVE_SETTING_PREFIX, type SnapshotInfo } from '../snapshots.js';

/**
 * SQLite snapshots are database files beside the store's own (`<file>.snapshots/<name>.db`),
 * written by `VACUUM INTO` (a consistent copy taken while others keep writing). A restore copies
 * every table back in one transaction, table by table in SQL, so it takes a fraction of a second
 * for the demo graph and other processes on the file simply see the new rows.
 */
export class SqliteSnapshots {
  constructor(private readonly db: Database.Database) {}

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
    try {
      this.db.prepare('VACUUM INTO ?').run(partial);
      const copy = new Database(partial);
      try {
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
  }

  restore(name: string): boolean {
    const source = this.file(name);
    if (!existsSync(source)) return false;
    this.db.prepare('ATTACH DATABASE ? AS snapshot').run(source);
    try {
      const tables = this.db
        .prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .pluck()
        .all() as string[];
      this.db.transaction(() => {
        // Rows come back in any order; their references need only hold once all are back.
        this.db.pragma('defer_foreign_keys = ON');
        for (const table of tables) {
          // The auth version only moves forwards: the triggers of the rows copied here move it on,
          // so every process drops its cached tokens; setting it back could revive a stale cache.
          if (table === 'auth_version') continue;
          // The full-text index follows the objects (their triggers rebuild it as they are copied
          // back), and what it indexes is the running schema's declaration, not the snapshot's.
          if (table.startsWith('search_')) continue;
          const quoted = `"${table.replace(/"/g, '""')}"`;
          const keep = table === 'settings' ? ` WHERE key NOT LIKE '${LIVE_SETTING_PREFIX}%'` : '';
          this.db.exec(`DELETE FROM main.${quoted}${keep}`);
          this.db.exec(`INSERT INTO main.${quoted} SELECT * FROM snapshot.${quoted}${keep}`);
        }
        // The id sequence goes back too, so a restored graph hands out the same new ids again.
        this.db.exec('DELETE FROM main.sqlite_sequence');
        this.db.exec('INSERT INTO main.sqlite_sequence SELECT * FROM snapshot.sqlite_sequence');
      }).immediate();
    } finally {
      this.db.exec('DETACH DATABASE snapshot');
    }
    return true;
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
    if (!existsSync(file)) return false;
    rmSync(file);
    return true;
  }
}
