import type Database from 'better-sqlite3';
import { MEDIA_KEY_PATHS } from '../media-keys.js';
import { LIVE_SETTING_PREFIX } from '../snapshots.js';
import { isLogged, UNDO_FORMAT, type Undone } from '../undo-log.js';

/**
 * The undo log on SQLite (see undo-log.ts): each change's trigger writes the SQL text that undoes
 * it, its values spelled by quote(), which gives back exactly the value stored. Going back runs
 * those statements newest first in one immediate transaction, so every other process sees the
 * state before or the state after, and waits (up to its busy timeout) while it runs.
 */

/** Where a state is in the log: the last change it holds, and the AUTOINCREMENT sequences there. */
export interface LogPosition {
  position: number;
  /** sqlite_sequence as it was, less the log's own. */
  sequences: Record<string, number>;
}

/** A column per media key path (image_key, video_key): the files a logged old row points at. */
const KEY_COLUMNS = MEDIA_KEY_PATHS.map((path) => ({ column: `${path[0]}_key`, path: `$.${path.join('.')}` }));

const TABLES = `
  CREATE TABLE IF NOT EXISTS undo_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    statement TEXT NOT NULL,
    ${KEY_COLUMNS.map(({ column }) => `${column} TEXT`).join(',\n    ')}
  );
  ${KEY_COLUMNS.map(({ column }) => `CREATE INDEX IF NOT EXISTS undo_log_${column} ON undo_log (${column}) WHERE ${column} IS NOT NULL;`).join('\n  ')}
  -- copied: the marked state has a copy of its own (a snapshot), which keeps its files wanted.
  CREATE TABLE IF NOT EXISTS undo_marks (
    name TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    sequences TEXT NOT NULL,
    copied INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- floor: no row at or below it is left, so a mark below it can no longer be gone back to.
  CREATE TABLE IF NOT EXISTS undo_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    format TEXT NOT NULL,
    floor INTEGER NOT NULL
  );
`;

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteText = (text: string) => `'${text.replace(/'/g, "''")}'`;

export class SqliteUndoLog {
  constructor(private readonly db: Database.Database) {}

  /** The state as it is now; the caller holds the write lock (an immediate transaction). */
  here(): LogPosition {
    const sequences: Record<string, number> = {};
    let position = 0;
    for (const { name, seq } of this.db.prepare<[], { name: string; seq: number }>('SELECT name, seq FROM sqlite_sequence').all()) {
      if (name === 'undo_log') position = seq;
      else sequences[name] = seq;
    }
    return { position, sequences };
  }

  /**
   * Marks the state as it is now, replacing a mark of that name; starts the log if it is off.
   * `copied`: a copy of the state is kept beside the log (a snapshot's).
   */
  mark(name: string, copied: boolean): void {
    this.db.transaction(() => {
      this.start();
      this.record(name, this.here(), copied);
    }).immediate();
  }

  /**
   * Marks a state the log has passed, which a copy of the database taken since the log started
   * holds, when the log still reaches back to it: answers whether it was marked.
   */
  markAt(name: string, at: LogPosition): boolean {
    return this.db.transaction(() => {
      const state = this.state();
      if (state !== undefined && at.position >= state.floor) {
        this.record(name, at, true);
        return true;
      }
      // An older mark of the name must not stand for the new state.
      if (state !== undefined) this.db.prepare('DELETE FROM undo_marks WHERE name = ?').run(name);
      return false;
    }).immediate();
  }

  /**
   * Starts the log if it is off, so that a copy of the database taken next holds its position.
   * A log of another layout is dropped first, and its marks with it.
   */
  start(): void {
    this.db.transaction(() => {
      const state = this.state();
      if (state !== undefined) return;
      this.drop();
      this.db.exec(TABLES);
      for (const table of this.loggedTables()) this.db.exec(this.triggers(table).join('\n'));
      this.db.prepare('INSERT INTO undo_state (id, format, floor) VALUES (1, ?, 0)').run(this.format());
    }).immediate();
  }

  /**
   * Goes back to the named mark: undefined when there is none the log still reaches, and then
   * nothing changed. The mark moves to the end of the log, which is the state it names again.
   */
  goBack(name: string): Undone | undefined {
    return this.db.transaction((): Undone | undefined => {
      const state = this.state();
      const mark = state && this.db.prepare<[string], { position: number; sequences: string }>('SELECT position, sequences FROM undo_marks WHERE name = ?').get(name);
      if (state === undefined || mark === undefined || mark.position < state.floor) return undefined;
      const end = this.here().position;
      const statements = this.db
        .prepare<[number], string>('SELECT statement FROM undo_log WHERE seq > ? ORDER BY seq DESC')
        .pluck()
        .all(mark.position);
      // Each statement holds where the change left its row; references hold again once all ran.
      this.db.pragma('defer_foreign_keys = ON');
      if (statements.length > 0) this.db.exec(statements.join(';\n'));
      this.db.prepare(`DELETE FROM sqlite_sequence WHERE name <> 'undo_log'`).run();
      const setSequence = this.db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)');
      for (const [table, seq] of Object.entries(JSON.parse(mark.sequences) as Record<string, number>)) setSequence.run(table, seq);
      // The undo's own rows name the files of the rows it removed or changed.
      const mediaKeys = this.db
        .prepare<[number], string | null>(`SELECT value FROM undo_log, json_each(json_array(${KEY_COLUMNS.map(({ column }) => column).join(', ')})) WHERE seq > ?`)
        .pluck()
        .all(end)
        .filter((key): key is string => typeof key === 'string');
      // Those rows were written after the mark gone back to: only a state marked since then, with
      // no copy of its own to keep its files wanted, may need their files.
      const needed = this.db.prepare('SELECT 1 FROM undo_marks WHERE NOT copied AND position > ? AND position <= ?').get(mark.position, end);
      if (!needed) this.db.prepare(`UPDATE undo_log SET ${KEY_COLUMNS.map(({ column }) => `${column} = NULL`).join(', ')} WHERE seq > ?`).run(end);
      this.db.prepare('UPDATE undo_marks SET position = ? WHERE name = ?').run(this.here().position, name);
      this.prune();
      return { mediaKeys: [...new Set(mediaKeys)] };
    }).immediate();
  }

  /** Forgets a mark (answers whether there was one); the log stops with the last. */
  forget(name: string): boolean {
    return this.db.transaction(() => {
      if (this.state() === undefined) return false;
      const { changes } = this.db.prepare('DELETE FROM undo_marks WHERE name = ?').run(name);
      if (this.db.prepare('SELECT 1 FROM undo_marks').get() === undefined) this.drop();
      else this.prune();
      return changes > 0;
    }).immediate();
  }

  /** Which of these keys an old row in the log points at: files a mark may bring back. */
  findMediaKeys(keys: readonly string[]): string[] {
    if (keys.length === 0 || !this.tableExists('undo_log')) return [];
    const sql = KEY_COLUMNS.map(({ column }) => `SELECT ${column} FROM undo_log WHERE ${column} IN (SELECT value FROM json_each(?))`).join(' UNION ');
    const list = JSON.stringify(keys);
    return this.db
      .prepare(sql)
      .pluck()
      .all(...KEY_COLUMNS.map(() => list)) as string[];
  }

  /** Drops the log, its marks and its triggers (from a copy of the database, too). */
  drop(): void {
    const triggers = this.db.prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'undo\\_%' ESCAPE '\\'`).pluck().all();
    for (const trigger of triggers) this.db.exec(`DROP TRIGGER ${quoteName(trigger)}`);
    this.db.exec('DROP TABLE IF EXISTS undo_log; DROP TABLE IF EXISTS undo_marks; DROP TABLE IF EXISTS undo_state;');
  }

  /** The log's state when it runs in this layout; a log of another layout is stopped. */
  private state(): { floor: number } | undefined {
    if (!this.tableExists('undo_state')) return undefined;
    const row = this.db.prepare<[], { format: string; floor: number }>('SELECT format, floor FROM undo_state').get();
    if (row?.format === this.format()) return { floor: row.floor };
    this.drop();
    return undefined;
  }

  private record(name: string, at: LogPosition, copied: boolean): void {
    this.db
      .prepare(
        `INSERT INTO undo_marks (name, position, sequences, copied) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position, sequences = excluded.sequences, copied = excluded.copied`,
      )
      .run(name, at.position, JSON.stringify(at.sequences), copied ? 1 : 0);
    this.prune();
  }

  /** Drops the rows no mark needs: those up to the earliest mark. */
  private prune(): void {
    const earliest = this.db.prepare<[], number | null>('SELECT min(position) FROM undo_marks').pluck().get() ?? this.here().position;
    this.db.prepare('DELETE FROM undo_log WHERE seq <= ?').run(earliest);
    this.db.prepare('UPDATE undo_state SET floor = max(floor, ?)').run(earliest);
  }

  private format(): string {
    return `${UNDO_FORMAT}.${this.db.pragma('user_version', { simple: true }) as number}`;
  }

  private tableExists(name: string): boolean {
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
  }

  private loggedTables(): string[] {
    return this.db
      .prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
      .pluck()
      .all()
      .filter(isLogged);
  }

  /** The three triggers of a table, each writing the SQL text that undoes its change. */
  private triggers(table: string): string[] {
    const columns = this.db.prepare<[], { name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info(${quoteText(table)})`).all();
    const key = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    if (key.length === 0) throw new Error(`The table ${table} has no primary key, so the undo log cannot name its rows`);
    const name = quoteName(table);
    // SQL that builds SQL: literal text joined with quote() of the row's values.
    const spell = (parts: Array<string | { row: 'OLD' | 'NEW'; column: string }>) =>
      parts.map((part) => (typeof part === 'string' ? quoteText(part) : `quote(${part.row}.${quoteName(part.column)})`)).join(' || ');
    const where = (row: 'OLD' | 'NEW') => key.flatMap((column, i) => [`${i === 0 ? ' WHERE ' : ' AND '}${quoteName(column.name)} = `, { row, column: column.name }]);
    const values = columns.flatMap((column, i) => [i === 0 ? '' : ', ', { row: 'OLD' as const, column: column.name }]);
    const sets = columns.flatMap((column, i) => [`${i === 0 ? '' : ', '}${quoteName(column.name)} = `, { row: 'OLD' as const, column: column.name }]);
    const undo = {
      INSERT: spell([`DELETE FROM ${name}`, ...where('NEW')]),
      DELETE: spell([`INSERT INTO ${name} (${columns.map((column) => quoteName(column.name)).join(', ')}) VALUES (`, ...values, ')']),
      UPDATE: spell([`UPDATE ${name} SET `, ...sets, ...where('NEW')]),
    };
    // The files an old row points at, so they outlive its delete while the log may bring it back.
    const keys = (event: 'INSERT' | 'DELETE' | 'UPDATE') =>
      KEY_COLUMNS.map(({ path }) => (table === 'objects' && event !== 'INSERT' ? `json_extract(OLD.data, ${quoteText(path)})` : 'NULL'));
    // The servers' live settings are not the graph's: a restore leaves them as they are.
    const live = `LIKE ${quoteText(`${LIVE_SETTING_PREFIX}%`)}`;
    const when = {
      INSERT: table === 'settings' ? ` WHEN NEW.key NOT ${live}` : '',
      DELETE: table === 'settings' ? ` WHEN OLD.key NOT ${live}` : '',
      UPDATE: table === 'settings' ? ` WHEN OLD.key NOT ${live} AND NEW.key NOT ${live}` : '',
    };
    return (['INSERT', 'DELETE', 'UPDATE'] as const).map(
      (event) =>
        `CREATE TRIGGER ${quoteName(`undo_${table}_${event.toLowerCase()}`)} AFTER ${event} ON ${name}${when[event]} BEGIN ` +
        `INSERT INTO undo_log (statement, ${KEY_COLUMNS.map(({ column }) => column).join(', ')}) VALUES (${undo[event]}, ${keys(event).join(', ')}); END;`,
    );
  }
}
