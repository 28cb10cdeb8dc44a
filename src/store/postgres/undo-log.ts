import type pg from 'pg';
import { MEDIA_KEY_PATHS } from '../media-keys.js';
import { LIVE_SETTING_PREFIX } from '../snapshots.js';
import { isLogged, UNDO_FORMAT, type Undone } from '../undo-log.js';
import { quoteIdentifier } from './connection.js';

/**
 * The undo log on PostgreSQL (see undo-log.ts): each change's trigger keeps the row as it was and
 * as it became, as the text of the table's row type, which reads back exactly (json keeps its
 * text, numbers their digits). Going back runs one generated function whose statements, one set
 * per table, are planned once. Every function here runs inside the caller's transaction.
 */

/** First key of the two-key advisory lock that starting and stopping the log take turns on ("undo"). */
const LOG_LOCK = 0x756e646f;
const KEY_COLUMNS = MEDIA_KEY_PATHS.map((path) => ({ column: `${path[0]}_key`, path: `'{${path.join(',')}}'` }));

interface LogState {
  floor: number;
  /** The tables the triggers log, locked while the log is gone back through. */
  tables: string[];
}

interface SequenceValue {
  name: string;
  last_value: number;
  is_called: boolean;
}

export class PostgresUndoLog {
  private readonly own: (name: string) => string;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly schema: string,
  ) {
    this.own = (name) => `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
  }

  /** Starts the log if it is off (a log of another layout is dropped first, with its marks). */
  async start(): Promise<void> {
    await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOG_LOCK, this.schema]);
    if (await this.state()) return;
    await this.drop();
    const tables = await this.loggedTables();
    await this.deferrableReferences();
    await this.client.query(this.tablesSql());
    for (const table of tables) await this.client.query(await this.triggerSql(table));
    await this.client.query(await this.replaySql(tables));
    await this.client.query(`INSERT INTO ${this.own('undo_state')} (id, format, floor, tables) VALUES (1, $1, 0, $2)`, [
      await this.format(),
      JSON.stringify(tables),
    ]);
  }

  /**
   * Marks the state as it is now, replacing a mark of that name; starts the log if it is off.
   * Writers wait from here to the end of the caller's transaction, so a copy taken in it holds
   * the same state. `copied`: a copy of the state is kept beside the log (a snapshot's).
   */
  async mark(name: string, copied: boolean): Promise<void> {
    await this.start();
    await this.client.query(`LOCK TABLE ${this.own('undo_log')} IN SHARE MODE`);
    await this.client.query(
      `INSERT INTO ${this.own('undo_marks')} (name, position, sequences, copied) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET position = excluded.position, sequences = excluded.sequences, copied = excluded.copied`,
      [name, await this.position(), JSON.stringify(await this.sequences()), copied],
    );
    await this.prune();
  }

  /**
   * Goes back to the named mark: undefined when there is none the log still reaches, and then
   * nothing changed. The mark moves to the end of the log, which is the state it names again.
   */
  async goBack(name: string): Promise<Undone | undefined> {
    const state = await this.state();
    if (!state) return undefined;
    // Writers wait, and those under way finish first: nothing is written between the undo and its end.
    await this.client.query(`LOCK TABLE ${[...state.tables, 'undo_log'].map(this.own).join(', ')} IN EXCLUSIVE MODE`);
    const { rows } = await this.client.query<{ position: number; sequences: SequenceValue[] }>(
      `SELECT position, sequences FROM ${this.own('undo_marks')} WHERE name = $1`,
      [name],
    );
    const mark = rows[0];
    if (!mark || mark.position < state.floor) return undefined;
    const end = await this.position();
    // A cascade logs the parent's delete before its children's, so the undo puts a child back
    // before its parent: references are checked once all are back.
    await this.client.query('SET CONSTRAINTS ALL DEFERRED');
    await this.client.query(`SELECT ${this.own('undo_replay')}($1)`, [mark.position]);
    for (const sequence of mark.sequences) {
      await this.client.query('SELECT setval($1::regclass, $2, $3)', [this.own(sequence.name), sequence.last_value, sequence.is_called]);
    }
    // The undo's own rows name the files of the rows it removed or changed.
    const { rows: keys } = await this.client.query<{ key: string }>(
      KEY_COLUMNS.map(({ column }) => `SELECT ${column} AS key FROM ${this.own('undo_log')} WHERE seq > $1 AND ${column} IS NOT NULL`).join(' UNION '),
      [end],
    );
    // Those rows were written after the mark gone back to: only a state marked since then, with
    // no copy of its own to keep its files wanted, may need their files.
    const { rowCount: needed } = await this.client.query(`SELECT 1 FROM ${this.own('undo_marks')} WHERE NOT copied AND position > $1 AND position <= $2`, [
      mark.position,
      end,
    ]);
    if (needed === 0) {
      await this.client.query(`UPDATE ${this.own('undo_log')} SET ${KEY_COLUMNS.map(({ column }) => `${column} = NULL`).join(', ')} WHERE seq > $1`, [end]);
    }
    await this.client.query(`UPDATE ${this.own('undo_marks')} SET position = $1 WHERE name = $2`, [await this.position(), name]);
    await this.prune();
    return { mediaKeys: keys.map((row) => row.key) };
  }

  /** Forgets a mark (answers whether there was one); the log stops with the last. */
  async forget(name: string): Promise<boolean> {
    if (!(await this.state())) return false;
    const { rowCount } = await this.client.query(`DELETE FROM ${this.own('undo_marks')} WHERE name = $1`, [name]);
    const { rowCount: left } = await this.client.query(`SELECT 1 FROM ${this.own('undo_marks')} LIMIT 1`);
    if (left === 0) {
      await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOG_LOCK, this.schema]);
      await this.drop();
    } else {
      await this.prune();
    }
    return (rowCount ?? 0) > 0;
  }

  /** Drops the log, its marks, its triggers and its functions. */
  private async drop(): Promise<void> {
    const { rows } = await this.client.query<{ trigger: string; table: string }>(
      `SELECT t.tgname AS trigger, c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND t.tgname LIKE 'undo\\_%'`,
      [this.schema],
    );
    for (const { trigger, table } of rows) await this.client.query(`DROP TRIGGER ${quoteIdentifier(trigger)} ON ${this.own(table)}`);
    const { rows: functions } = await this.client.query<{ signature: string }>(
      `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname LIKE 'undo\\_%'`,
      [this.schema],
    );
    for (const { signature } of functions) await this.client.query(`DROP FUNCTION ${signature}`);
    for (const table of ['undo_log', 'undo_marks', 'undo_state']) await this.client.query(`DROP TABLE IF EXISTS ${this.own(table)}`);
    await this.client.query(`DROP SEQUENCE IF EXISTS ${this.own('undo_log_seq')}`);
  }

  /** The log's state when it runs in this layout; a log of another layout is stopped. */
  private async state(): Promise<LogState | undefined> {
    const { rows: exists } = await this.client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [this.own('undo_state')]);
    if (exists[0]?.found == null) return undefined;
    const { rows } = await this.client.query<{ format: string; floor: number; tables: string[] }>(`SELECT format, floor, tables FROM ${this.own('undo_state')}`);
    const row = rows[0];
    if (row && row.format === (await this.format())) return { floor: row.floor, tables: row.tables };
    await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOG_LOCK, this.schema]);
    await this.drop();
    return undefined;
  }

  /**
   * Lets the store's foreign keys be checked at the end of a transaction that asks for it, as
   * going back does. They stay checked at once otherwise (INITIALLY IMMEDIATE), as they were made.
   */
  private async deferrableReferences(): Promise<void> {
    const { rows } = await this.client.query<{ table: string; name: string }>(
      `SELECT c.relname AS table, k.conname AS name FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = k.connamespace
        WHERE n.nspname = $1 AND k.contype = 'f' AND NOT k.condeferrable`,
      [this.schema],
    );
    for (const { table, name } of rows) {
      await this.client.query(`ALTER TABLE ${this.own(table)} ALTER CONSTRAINT ${quoteIdentifier(name)} DEFERRABLE INITIALLY IMMEDIATE`);
    }
  }

  /** The last change logged so far. */
  private async position(): Promise<number> {
    const { rows } = await this.client.query<{ position: number }>(
      `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS position FROM ${this.own('undo_log_seq')}`,
    );
    return rows[0]!.position;
  }

  /** The id sequences of the store's own tables, where they are now. */
  private async sequences(): Promise<SequenceValue[]> {
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name`,
      [this.schema],
    );
    const values: SequenceValue[] = [];
    for (const { name } of rows.filter((row) => isLogged(row.name))) {
      const { rows: value } = await this.client.query<{ last_value: number; is_called: boolean }>(`SELECT last_value, is_called FROM ${this.own(name)}`);
      values.push({ name, ...value[0]! });
    }
    return values;
  }

  /** Drops the rows no mark needs: those up to the earliest mark. */
  private async prune(): Promise<void> {
    const { rows } = await this.client.query<{ earliest: number | null }>(`SELECT min(position) AS earliest FROM ${this.own('undo_marks')}`);
    const earliest = rows[0]?.earliest ?? (await this.position());
    await this.client.query(`DELETE FROM ${this.own('undo_log')} WHERE seq <= $1`, [earliest]);
    await this.client.query(`UPDATE ${this.own('undo_state')} SET floor = greatest(floor, $1)`, [earliest]);
  }

  private async format(): Promise<string> {
    const { rows } = await this.client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${this.own('schema_migrations')}`);
    return `${UNDO_FORMAT}.${rows[0]?.version ?? 0}`;
  }

  private async loggedTables(): Promise<string[]> {
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
      [this.schema],
    );
    return rows.map((row) => row.name).filter(isLogged);
  }

  private async columns(table: string): Promise<{ columns: string[]; key: string[] }> {
    const { rows } = await this.client.query<{ name: string; key: number | null }>(
      `SELECT a.attname AS name, array_position(i.indkey::int2[], a.attnum) AS key
         FROM pg_attribute a LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
        WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [this.own(table)],
    );
    const key = rows.filter((row) => row.key !== null).sort((a, b) => a.key! - b.key!);
    if (key.length === 0) throw new Error(`The table ${table} has no primary key, so the undo log cannot name its rows`);
    return { columns: rows.map((row) => row.name), key: key.map((row) => row.name) };
  }

  private tablesSql(): string {
    return `
      CREATE SEQUENCE ${this.own('undo_log_seq')};
      CREATE TABLE ${this.own('undo_log')} (
        seq bigint PRIMARY KEY DEFAULT nextval('${this.own('undo_log_seq').replace(/'/g, "''")}'),
        tbl text NOT NULL,
        op text NOT NULL,
        old_row text,
        new_row text,
        ${KEY_COLUMNS.map(({ column }) => `${column} text`).join(',\n        ')}
      );
      ${KEY_COLUMNS.map(({ column }) => `CREATE INDEX ${quoteIdentifier(`undo_log_${column}`)} ON ${this.own('undo_log')} (${column}) WHERE ${column} IS NOT NULL;`).join('\n      ')}
      -- copied: the marked state has a copy of its own (a snapshot), which keeps its files wanted.
      CREATE TABLE ${this.own('undo_marks')} (name text PRIMARY KEY, position bigint NOT NULL, sequences json NOT NULL, copied boolean NOT NULL);
      -- floor: no row at or below it is left, so a mark below it can no longer be gone back to.
      CREATE TABLE ${this.own('undo_state')} (id integer PRIMARY KEY CHECK (id = 1), format text NOT NULL, floor bigint NOT NULL, tables json NOT NULL);
      -- TRUNCATE fires no row triggers: what it emptied is not in the log, so no mark before it is reachable.
      CREATE FUNCTION ${this.own('undo_truncated')}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE ${this.own('undo_state')} SET floor = (SELECT last_value + 1 FROM ${this.own('undo_log_seq')});
        RETURN NULL;
      END
      $$;`;
  }

  /** A table's trigger function and triggers: each change keeps the row before and after it. */
  private async triggerSql(table: string): Promise<string> {
    const name = this.own(table);
    const keys = KEY_COLUMNS.map(({ path }) => (table === 'objects' ? `CASE WHEN TG_OP <> 'INSERT' THEN OLD.data #>> ${path} END` : 'NULL'));
    // The servers' live settings are not the graph's: a restore leaves them as they are.
    const live = `LIKE '${LIVE_SETTING_PREFIX}%'`;
    const skip = table === 'settings' ? `IF (TG_OP <> 'INSERT' AND OLD.key ${live}) OR (TG_OP <> 'DELETE' AND NEW.key ${live}) THEN RETURN NULL; END IF;` : '';
    const record = this.own(`undo_${table}`);
    return `
      CREATE FUNCTION ${record}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${skip}
        INSERT INTO ${this.own('undo_log')} (tbl, op, old_row, new_row, ${KEY_COLUMNS.map(({ column }) => column).join(', ')})
        VALUES ('${table}', left(TG_OP, 1), CASE WHEN TG_OP <> 'INSERT' THEN OLD::text END, CASE WHEN TG_OP <> 'DELETE' THEN NEW::text END, ${keys.join(', ')});
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER ${quoteIdentifier(`undo_${table}`)} AFTER INSERT OR UPDATE OR DELETE ON ${name} FOR EACH ROW EXECUTE FUNCTION ${record}();
      CREATE TRIGGER ${quoteIdentifier(`undo_${table}_truncate`)} AFTER TRUNCATE ON ${name} FOR EACH STATEMENT EXECUTE FUNCTION ${this.own('undo_truncated')}();`;
  }

  /** The function that applies the log's rows after a position, newest first: static statements per table. */
  private async replaySql(tables: string[]): Promise<string> {
    const declarations: string[] = [];
    const branches: string[] = [];
    for (const [index, table] of tables.entries()) {
      const { columns, key } = await this.columns(table);
      const [before, after] = [`undo_old_${index}`, `undo_new_${index}`];
      declarations.push(`${before} ${this.own(table)};`, `${after} ${this.own(table)};`);
      const list = (row: string, names: string[]) => names.map((column) => `${row}.${quoteIdentifier(column)}`).join(', ');
      const where = `WHERE (${key.map(quoteIdentifier).join(', ')}) = (${list(after, key)})`;
      branches.push(`r.tbl = '${table}' THEN
        IF r.op = 'I' THEN
          ${after} := r.new_row::${this.own(table)};
          DELETE FROM ${this.own(table)} ${where};
        ELSIF r.op = 'D' THEN
          ${before} := r.old_row::${this.own(table)};
          INSERT INTO ${this.own(table)} SELECT (${before}).*;
        ELSE
          ${before} := r.old_row::${this.own(table)};
          ${after} := r.new_row::${this.own(table)};
          UPDATE ${this.own(table)} SET (${columns.map(quoteIdentifier).join(', ')}) = ROW(${list(before, columns)}) ${where};
        END IF;`);
    }
    return `
      CREATE FUNCTION ${this.own('undo_replay')}(after_seq bigint) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        r record;
        ${declarations.join('\n        ')}
      BEGIN
        FOR r IN SELECT tbl, op, old_row, new_row FROM ${this.own('undo_log')} WHERE seq > after_seq ORDER BY seq DESC LOOP
          IF ${branches.join('\n          ELSIF ')}
          ELSE
            RAISE EXCEPTION 'The undo log names a table it does not log: %', r.tbl;
          END IF;
        END LOOP;
      END
      $$;`;
  }
}

/** Which of these keys an old row in the undo log points at: files a mark may bring back. */
export async function findLoggedMediaKeys(pool: pg.Pool, schema: string, keys: readonly string[]): Promise<string[]> {
  const log = `${quoteIdentifier(schema)}.undo_log`;
  const { rows: exists } = await pool.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [log]);
  if (keys.length === 0 || exists[0]?.found == null) return [];
  const { rows } = await pool.query<{ key: string }>(
    KEY_COLUMNS.map(({ column }) => `SELECT ${column} AS key FROM ${log} WHERE ${column} = ANY($1::text[])`).join(' UNION '),
    [[...keys]],
  );
  return rows.map((row) => row.key);
}
