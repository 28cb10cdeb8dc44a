import * as sqliteSteps from './sqlite/own-steps.js';
import * as postgresSteps from './postgres/own-steps.js';

/**
 * The steps of Loom's schema, in order, for both stores. A step the two dialects say alike is
 * written once, with the words they spell differently taken from its `Dialect`; a step they say
 * in their own words (triggers, full-text search, JSON operators) names each dialect's text,
 * kept beside that dialect. Steps are never edited once released: a change to the schema is a
 * new step appended to the list. A dialect numbers the steps it takes 1, 2, 3, … in this order.
 */

export type DialectName = 'sqlite' | 'postgres';

/** The words of a table definition the two dialects spell differently. */
interface Dialect {
  name: DialectName;
  /** Ids, counts and times: 64-bit whole numbers. */
  int: string;
  /** A whole number that stays small (a position, a number of attempts). */
  small: string;
  text: string;
  /** JSON text. */
  json: string;
  /** A yes or no, and its no. */
  flag: string;
  no: string;
  /** A row id the database hands out, never reused. */
  serial: string;
  /** After a table whose primary key is the only way it is looked up. */
  keyed: string;
}

const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  sqlite: {
    name: 'sqlite',
    int: 'INTEGER',
    small: 'INTEGER',
    text: 'TEXT',
    json: 'TEXT',
    flag: 'INTEGER',
    no: '0',
    serial: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    keyed: ' WITHOUT ROWID',
  },
  postgres: {
    name: 'postgres',
    int: 'bigint',
    small: 'integer',
    text: 'text',
    json: 'json',
    flag: 'boolean',
    no: 'false',
    serial: 'bigserial PRIMARY KEY',
    keyed: '',
  },
};

/** A step one dialect says in its own words. */
interface OwnStep {
  description: string;
  sql: string;
}

type Step =
  | { description: string; sql: (d: Dialect) => string }
  | { own: Partial<Record<DialectName, OwnStep>> };

/** A step as a dialect applies it. */
export interface Migration {
  /** Numbered 1, 2, 3, … without gaps. */
  version: number;
  description: string;
  sql: string;
}

const STEPS: readonly Step[] = [
  {
    description: 'objects, associations, counts and the auth tables',
    sql: (d) => `
      ${objectsTable(d)}

      CREATE TABLE associations (
        id1 ${d.int} NOT NULL,
        type ${d.text} NOT NULL,
        id2 ${d.int} NOT NULL,
        time ${d.int} NOT NULL,
        data ${d.json},
        PRIMARY KEY (id1, type, id2)
      )${d.keyed};
      -- Every page is a range scan of this index, whatever the size of the list.
      CREATE INDEX associations_by_time ON associations (id1, type, time DESC, id2 DESC);
      -- Lets deleteObject find the associations pointing at the deleted object.
      CREATE INDEX associations_by_id2 ON associations (id2);

      CREATE TABLE counts (
        id1 ${d.int} NOT NULL,
        type ${d.text} NOT NULL,
        count ${d.int} NOT NULL,
        PRIMARY KEY (id1, type)
      )${d.keyed};

      CREATE TABLE apps (
        id ${d.int} PRIMARY KEY REFERENCES objects (id) ON DELETE CASCADE,
        secret ${d.text} NOT NULL,
        id_key ${d.text} NOT NULL,
        require_proof ${d.flag} NOT NULL DEFAULT ${d.no},
        business_id ${d.int},
        created_time ${d.int} NOT NULL
      );

      CREATE TABLE tokens (
        hash ${d.text} PRIMARY KEY,
        kind ${d.text} NOT NULL CHECK (kind IN ('user', 'app')),
        app_id ${d.int} NOT NULL,
        user_id ${d.int},
        scopes ${d.json} NOT NULL,
        issued_at ${d.int} NOT NULL,
        expires_at ${d.int} NOT NULL
      )${d.keyed};
      CREATE INDEX tokens_by_app_user ON tokens (app_id, user_id);

      CREATE TABLE grants (
        app_id ${d.int} NOT NULL,
        user_id ${d.int} NOT NULL,
        scope ${d.text} NOT NULL,
        status ${d.text} NOT NULL CHECK (status IN ('granted', 'declined')),
        PRIMARY KEY (app_id, user_id, scope)
      )${d.keyed};

      CREATE TABLE settings (
        key ${d.text} PRIMARY KEY,
        value ${d.text} NOT NULL
      )${d.keyed};
    `,
  },
  {
    description: 'sign-in credentials and OAuth authorization codes',
    sql: (d) => `
      CREATE TABLE credentials (
        user_id ${d.int} PRIMARY KEY,
        email ${d.text} NOT NULL UNIQUE,
        password_hash ${d.text} NOT NULL
      );

      CREATE TABLE auth_codes (
        hash ${d.text} PRIMARY KEY,
        app_id ${d.int} NOT NULL,
        user_id ${d.int} NOT NULL,
        redirect_uri ${d.text} NOT NULL,
        scopes ${d.json} NOT NULL,
        expires_at ${d.int} NOT NULL
      )${d.keyed};
    `,
  },
  {
    description: 'indexes that find everything of one person, for deleting test users',
    sql: () => `
      CREATE INDEX objects_by_owner ON objects (owner);
      CREATE INDEX grants_by_user ON grants (user_id);
      CREATE INDEX tokens_by_user ON tokens (user_id);
      CREATE INDEX auth_codes_by_user ON auth_codes (user_id);
    `,
  },
  {
    description: 'revoked tokens, so a token of a de-authorised app is told apart from an unknown one',
    sql: (d) => `
      CREATE TABLE revoked_tokens (
        hash ${d.text} PRIMARY KEY,
        app_id ${d.int} NOT NULL,
        user_id ${d.int} NOT NULL,
        expires_at ${d.int} NOT NULL
      )${d.keyed};
      CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires_at) WHERE expires_at <> 0;
    `,
  },
  {
    description: "apps' registered redirect URIs",
    sql: (d) => `
      -- A JSON array of strings; apps made before this step have none.
      ALTER TABLE apps ADD COLUMN redirect_uris ${d.json} NOT NULL DEFAULT '[]';
    `,
  },
  {
    description: "tombstones of deleted apps, and the slot of each app's scoped user ids",
    sql: (d) => `
      -- Only the id stays, so a deleted app's credentials and tokens get their own answer.
      CREATE TABLE deleted_apps (
        id ${d.int} PRIMARY KEY,
        deleted_time ${d.int} NOT NULL
      );
      -- Apps made before slots keep slot 0, so the user ids they handed out stay the same.
      ALTER TABLE apps ADD COLUMN id_tag ${d.small} NOT NULL DEFAULT 0;
      CREATE INDEX apps_by_id_tag ON apps (id_tag);
    `,
  },
  {
    description: 'calls counted per minute, for rate limits over a rolling hour',
    sql: (d) => `
      -- A subject is what a limit applies to (an app, one user of an app); old minutes are dropped as calls come.
      CREATE TABLE call_counts (
        subject ${d.text} NOT NULL,
        minute ${d.int} NOT NULL,
        calls ${d.int} NOT NULL,
        PRIMARY KEY (subject, minute)
      )${d.keyed};
    `,
  },
  { own: { sqlite: sqliteSteps.AUTH_CHANGES, postgres: postgresSteps.AUTH_CHANGES } },
  {
    description: 'webhook subscriptions, the outbox of changes and the delivery queue',
    sql: (d) => `
      CREATE TABLE webhook_subscriptions (
        app_id ${d.int} NOT NULL,
        object ${d.text} NOT NULL,
        callback_url ${d.text} NOT NULL,
        fields ${d.json} NOT NULL,
        verify_token ${d.text} NOT NULL,
        active ${d.flag} NOT NULL,
        created_time ${d.int} NOT NULL,
        PRIMARY KEY (app_id, object)
      )${d.keyed};

      -- Written in the transaction of each change; emptied as changes become deliveries.
      CREATE TABLE webhook_changes (
        id ${d.serial},
        subject ${d.int} NOT NULL,
        field ${d.text} NOT NULL,
        time ${d.int} NOT NULL,
        app_id ${d.int},
        lease_until ${d.int} NOT NULL DEFAULT 0
      );

      CREATE TABLE webhook_deliveries (
        id ${d.serial},
        app_id ${d.int} NOT NULL,
        object ${d.text} NOT NULL,
        callback_url ${d.text} NOT NULL,
        body ${d.text} NOT NULL,
        entry_count ${d.small} NOT NULL,
        created_time ${d.int} NOT NULL,
        status ${d.text} NOT NULL,
        attempt_count ${d.small} NOT NULL DEFAULT 0,
        attempts ${d.json} NOT NULL DEFAULT '[]',
        next_attempt_at ${d.int} NOT NULL,
        failing_since ${d.int},
        lease_until ${d.int} NOT NULL DEFAULT 0
      );
      -- The worker's question: which pending deliveries are due.
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, id);
    `,
  },
  { own: { sqlite: sqliteSteps.LIVE_SETTINGS_CHANGES, postgres: postgresSteps.LIVE_SETTINGS_CHANGES } },
  {
    description: 'page-tokens: the page a page token acts for',
    sql: (d) => `
      -- A page token is its administrator's token acting as the page: kind stays 'user' (whose
      -- grants it rests on and whose removal of the app revokes it) and page_id names the page.
      ALTER TABLE tokens ADD COLUMN page_id ${d.int};
    `,
  },
  { own: { sqlite: sqliteSteps.SEARCH_INDEX, postgres: postgresSteps.SEARCH_INDEX } },
  {
    description: 'declared-schema: applied declarations with their pinned storage keys, and the keys of declared nodes',
    sql: (d) => `
      -- Every declaration applied by loom schema apply: the merged text, its hash, and the storage
      -- keys pinned so far (JSON), so renames keep their data and prune knows what is gone.
      CREATE TABLE schema_versions (
        version ${d.small} PRIMARY KEY,
        name ${d.text} NOT NULL,
        hash ${d.text} NOT NULL,
        text ${d.text} NOT NULL,
        storage ${d.text} NOT NULL,
        source ${d.text} NOT NULL,
        app_id ${d.int} NOT NULL,
        applied_time ${d.int} NOT NULL
      );
      -- The team's own keys of declared nodes: (object type, key) names one object.
      CREATE TABLE declared_keys (
        type ${d.text} NOT NULL,
        key ${d.text} NOT NULL,
        id ${d.int} NOT NULL,
        PRIMARY KEY (type, key)
      )${d.keyed};
      CREATE INDEX declared_keys_by_id ON declared_keys (id);
    `,
  },
  { own: { sqlite: sqliteSteps.APPLIED_SCHEMA_CHANGES, postgres: postgresSteps.APPLIED_SCHEMA_CHANGES } },
  // PostgreSQL reads a page's rows from the table, which it keeps in the index's order anyway.
  { own: { sqlite: sqliteSteps.PAGES_FROM_INDEX } },
  { own: { sqlite: sqliteSteps.MEDIA_KEY_INDEXES, postgres: postgresSteps.MEDIA_KEY_INDEXES } },
  {
    description: 'revoked tokens keep their scopes, which debug_token still names for a token that no longer works',
    sql: (d) => `
      -- A JSON array of strings; tokens revoked before this step name none.
      ALTER TABLE revoked_tokens ADD COLUMN scopes ${d.json} NOT NULL DEFAULT '[]';
    `,
  },
];

/**
 * The objects table: its ids are public, so a deleted object's id is never handed out again.
 * SQLite keeps that promise with AUTOINCREMENT; PostgreSQL with a sequence, from which processes
 * never take the same id.
 */
function objectsTable(d: Dialect): string {
  const columns = `
        type ${d.text} NOT NULL,
        owner ${d.int},
        created_time ${d.int} NOT NULL,
        updated_time ${d.int} NOT NULL,
        data ${d.json} NOT NULL
      )`;
  if (d.name === 'sqlite') return `CREATE TABLE objects (\n        id ${d.serial},${columns};`;
  // Every table is keyed by an object id or id1, the keys a sharded deployment distributes by.
  // Data is json rather than jsonb: json keeps the keys in the order they were written.
  return `CREATE SEQUENCE object_ids;
      CREATE TABLE objects (\n        id bigint PRIMARY KEY DEFAULT nextval('object_ids'),${columns};
      ALTER SEQUENCE object_ids OWNED BY objects.id;`;
}

/** The steps a dialect takes, numbered in order. */
export function migrationsOf(name: DialectName): Migration[] {
  const dialect = DIALECTS[name];
  return STEPS.flatMap((step) => {
    if (!('own' in step)) return [{ description: step.description, sql: step.sql(dialect) }];
    const own = step.own[name];
    return own === undefined ? [] : [own];
  }).map((step, index) => ({ version: index + 1, ...step }));
}
