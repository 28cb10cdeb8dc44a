import type pg from 'pg';
import { MEDIA_KEY_PATHS } from '../media-keys.js';
import { LIVE_SETTING_PREFIX } from '../snapshots.js';
import { isLogged, UNDO_FORMAT, type Undone } from '../undo-log.js';
import { quoteIdentifier } from './connection.js';

/**
 * The undo log on PostgreSQL (see undo-log.ts): each change's trigger keeps the row as it was and
 * as it became, as the text of the table's row type, which reads back exactly (json keeps its
 * text, numbers their digits). Going back is one call of a generated function that does all of it
 * on the server, its statements (one set per table) planned once: whatever the store holds, it
 * costs one round trip, as a statement of its own (goBackAtOnce), or two in a caller's
 * transaction. Every method of PostgresUndoLog runs inside the caller's transaction.
 */

/** First key of the two-key advisory lock that starting and stopping the log take turns on ("undo"). */
const LOG_LOCK = 0x756e646f;
const KEY_COLUMNS = MEDIA_KEY_PATHS.map((path) => ({ column: `${path[0]}_key`, path: `'{${path.join(',')}}'` }));
/**
 * Set, in its own transaction, while a go-back replays changes no mark will need again: the
 * triggers then log nothing of the replay (see undo_go_back).
 */
const UNLOGGED_REPLAY = 'loom.undo_unlogged_replay';

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
    if (await this.running()) return;
    await this.drop();
    const tables = await this.loggedTables();
    await this.deferrableReferences();
    await this.client.query(this.tablesSql());
    for (const table of tables) await this.client.query(await this.triggerSql(table));
    await this.client.query(await this.replaySql(tables));
    await this.client.query(this.goBackSql(tables));
    await this.client.query(`INSERT INTO ${this.own('undo_state')} (id, format, floor) VALUES (1, $1, 0)`, [await this.format()]);
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
    const { rows: exists } = await this.client.query<{ found: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS found', [
      `${this.own('undo_go_back')}(text)`,
    ]);
    if (!exists[0]!.found) return undefined;
    const undone = await callGoBack(this.client, this.schema, name);
    if (undone === null) return undefined;
    if ('stale' in undone) {
      // Written under another layout: the log stops, with its marks.
      await this.running();
      return undefined;
    }
    return { mediaKeys: undone.keys };
  }

  /** Forgets a mark (answers whether there was one); the log stops with the last. */
  async forget(name: string): Promise<boolean> {
    if (!(await this.running())) return false;
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

  /** Whether the log runs in this layout; a log of another layout is stopped. */
  private async running(): Promise<boolean> {
    const { rows: exists } = await this.client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [this.own('undo_state')]);
    if (exists[0]?.found == null) return false;
    const { rows } = await this.client.query<{ format: string }>(`SELECT format FROM ${this.own('undo_state')}`);
    if (rows[0]?.format === (await this.format())) return true;
    await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOG_LOCK, this.schema]);
    await this.drop();
    return false;
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
    const { rows } = await this.client.query<{ position: number }>(`SELECT ${this.own('undo_position')}() AS position`);
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
    await this.client.query(`SELECT ${this.own('undo_prune')}()`);
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
      CREATE TABLE ${this.own('undo_state')} (id integer PRIMARY KEY CHECK (id = 1), format text NOT NULL, floor bigint NOT NULL);
      -- The last change logged so far.
      CREATE FUNCTION ${this.own('undo_position')}() RETURNS bigint LANGUAGE sql AS $$
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${this.own('undo_log_seq')}
      $$;
      -- Drops the rows no mark needs: those up to the earliest mark.
      CREATE FUNCTION ${this.own('undo_prune')}() RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        earliest bigint := coalesce((SELECT min(position) FROM ${this.own('undo_marks')}), ${this.own('undo_position')}());
      BEGIN
        DELETE FROM ${this.own('undo_log')} WHERE seq <= earliest;
        UPDATE ${this.own('undo_state')} SET floor = greatest(floor, earliest);
      END
      $$;
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
      CREATE TRIGGER ${quoteIdentifier(`undo_${table}`)} AFTER INSERT OR UPDATE OR DELETE ON ${name} FOR EACH ROW
        WHEN (current_setting('${UNLOGGED_REPLAY}', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ${record}();
      CREATE TRIGGER ${quoteIdentifier(`undo_${table}_truncate`)} AFTER TRUNCATE ON ${name} FOR EACH STATEMENT EXECUTE FUNCTION ${this.own('undo_truncated')}();`;
  }

  /**
   * The function that goes back to a mark, all on the server: null when the log no longer
   * reaches the mark (and then nothing changed), {stale: true} when the store's tables were
   * migrated since the log started, else the storage keys of the files the undone rows named.
   */
  private goBackSql(tables: string[]): string {
    const log = this.own('undo_log');
    const marks = this.own('undo_marks');
    const position = `${this.own('undo_position')}()`;
    const setSequences = `PERFORM setval(format('%I.%I', '${this.schema.replace(/'/g, "''")}', s.name)::regclass, s.last_value, s.is_called)
           FROM json_to_recordset(mark.sequences) AS s(name text, last_value bigint, is_called boolean);`;
    return `
      CREATE FUNCTION ${this.own('undo_go_back')}(mark_name text) RETURNS json LANGUAGE plpgsql AS $$
      DECLARE
        mark record;
        ending bigint;
        keys text[];
      BEGIN
        IF (SELECT format FROM ${this.own('undo_state')}) IS DISTINCT FROM
           '${UNDO_FORMAT}.' || coalesce((SELECT max(version) FROM ${this.own('schema_migrations')}), 0) THEN
          RETURN json_build_object('stale', true);
        END IF;
        -- Writers wait, and those under way finish first: nothing is written between the undo and its end.
        LOCK TABLE ${[...tables, 'undo_log'].map(this.own).join(', ')} IN EXCLUSIVE MODE;
        SELECT position, sequences INTO mark FROM ${marks} WHERE name = mark_name;
        IF NOT FOUND OR mark.position < (SELECT floor FROM ${this.own('undo_state')}) THEN
          RETURN NULL;
        END IF;
        ending := ${position};
        -- A cascade logs the parent's delete before its children's, so the undo puts a child back
        -- before its parent: references are checked once all are back.
        SET CONSTRAINTS ALL DEFERRED;
        IF NOT EXISTS (SELECT 1 FROM ${marks} WHERE position > mark.position) THEN
          -- No mark lies after this one (a reset to the start, most often): the changes since and
          -- their undoing cancel out for every mark, so neither is kept, and the mark stays where
          -- it is. The files to look at are those the changed rows named in any version since.
          SELECT coalesce(array_agg(DISTINCT k.key), '{}') INTO keys FROM (
            ${KEY_COLUMNS.map(({ path }) => `SELECT (new_row::${this.own('objects')}).data #>> ${path} AS key FROM ${log} WHERE seq > mark.position AND tbl = 'objects' AND new_row IS NOT NULL`).join('\n            UNION ALL ')}
          ) k WHERE k.key IS NOT NULL;
          PERFORM set_config('${UNLOGGED_REPLAY}', 'on', true);
          PERFORM ${this.own('undo_replay')}(mark.position);
          PERFORM set_config('${UNLOGGED_REPLAY}', 'off', true);
          ${setSequences}
          DELETE FROM ${log} WHERE seq > mark.position;
          RETURN json_build_object('keys', keys);
        END IF;
        PERFORM ${this.own('undo_replay')}(mark.position);
        ${setSequences}
        -- The undo's own rows name the files of the rows it removed or changed.
        SELECT coalesce(array_agg(k.key), '{}') INTO keys FROM (
          ${KEY_COLUMNS.map(({ column }) => `SELECT ${column} AS key FROM ${log} WHERE seq > ending AND ${column} IS NOT NULL`).join('\n          UNION ')}
        ) k;
        -- Those rows were written after the mark gone back to: only a state marked since then, with
        -- no copy of its own to keep its files wanted, may need their files.
        IF NOT EXISTS (SELECT 1 FROM ${marks} WHERE NOT copied AND position > mark.position AND position <= ending) THEN
          UPDATE ${log} SET ${KEY_COLUMNS.map(({ column }) => `${column} = NULL`).join(', ')} WHERE seq > ending;
        END IF;
        -- The mark moves to the end of the log, which is the state it names again.
        UPDATE ${marks} SET position = ${position} WHERE name = mark_name;
        PERFORM ${this.own('undo_prune')}();
        RETURN json_build_object('keys', keys);
      END
      $$;`;
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

/** What undo_go_back answers: nothing done (no mark the log reaches, or a log of another layout), or the files the undone rows named. */
type GoBackAnswer = { stale: true } | { keys: string[] } | null;

/** One call of undo_go_back (goBackSql), in the caller's transaction or as a statement of its own. */
async function callGoBack(queryable: pg.ClientBase | pg.Pool, schema: string, name: string): Promise<GoBackAnswer> {
  const { rows } = await queryable.query<{ undone: GoBackAnswer }>(`SELECT ${quoteIdentifier(schema)}.undo_go_back($1) AS undone`, [name]);
  return rows[0]!.undone;
}

/** SQLSTATE of a call of a function that does not exist (no log was ever started here). */
const UNDEFINED_FUNCTION = '42883';

/**
 * Goes back to the named mark in one round trip: the call is a statement, and so a transaction,
 * of its own, whose every step runs on the server (undo_go_back). Undefined when it did nothing:
 * no log, no mark the log reaches, or a log of another layout; a restore in a transaction of its
 * own (PostgresUndoLog.goBack, then a snapshot's copy) then tells which, and does what each asks.
 */
export async function goBackAtOnce(pool: pg.Pool, schema: string, name: string): Promise<Undone | undefined> {
  try {
    const undone = await callGoBack(pool, schema, name);
    return undone !== null && 'keys' in undone ? { mediaKeys: undone.keys } : undefined;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_FUNCTION) return undefined;
    throw error;
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
