/**
 * The undo log: how a reset or a snapshot restore costs what was written since, not the size of
 * the graph. While any state is marked (the state a server started with, a snapshot), triggers on
 * every data table record, in the transaction of each change and whoever makes it (any serving
 * process, the command line), the statement that undoes it, numbered in the order of the changes.
 * A mark is a position in that log and the id sequences' values there; going back to a mark
 * applies the undo statements after it, newest first, and sets the sequences back.
 *
 * Going back is itself logged like any other change, so every mark stays reachable after it (a
 * snapshot taken later can still be restored after a reset: its way back goes through the undone
 * changes), and the mark gone back to moves to the end of the log. On PostgreSQL, going back to
 * a mark with none after it (a reset to the start, most often) keeps neither the changes since
 * nor their undoing, which cancel out for every mark, and the mark stays. The log keeps only
 * what some mark may still need: rows up to the earliest mark go. With no mark left, the triggers
 * go too, and writes cost nothing extra.
 */

/**
 * The layout of the log and its triggers, with the store's migration version: a log written
 * under another layout (a newer Loom migrated the tables, or changed the triggers) is not
 * replayed, and its marks are lost.
 */
export const UNDO_FORMAT = 3;

/**
 * Whether a table's changes are logged. Not the log itself, the auth version (it only moves
 * forwards, so caches never take an old number for a new one), the full-text index (the objects'
 * own triggers keep it, and what it indexes is the running schema's declaration), the list of
 * migrations, nor the database's internal tables.
 */
export function isLogged(table: string): boolean {
  return !/^(undo_|search_|sqlite_)/.test(table) && !['auth_version', 'schema_migrations'].includes(table);
}

/** What going back to a mark undid that the caller may need to finish. */
export interface Undone {
  /**
   * Storage keys of files that rows the undo removed or changed pointed at: unless something
   * still points at them (findMediaKeys), the files are no longer wanted.
   */
  mediaKeys: string[];
}
