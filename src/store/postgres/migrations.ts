import type pg from 'pg';
import { quoteIdentifier } from './connection.js';

/**
 * One step of the PostgreSQL schema, the counterpart of the SQLite steps: the same tables and
 * versions. Steps are applied in order and never edited once released.
 */
export interface Migration {
  /** Numbered 1, 2, 3, … without gaps, as in SQLite; schema_migrations records each one applied. */
  version: number;
  description: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'objects, associations, counts and the auth tables',
    sql: `
      -- Ids come from a sequence, so processes never hand out the same one, and a deleted
      -- object's id is never reused: ids are public.
      CREATE SEQUENCE object_ids;
      -- Every table is keyed by an object id or id1, the keys a sharded deployment distributes by.
      -- Data is json rather than jsonb: json keeps the keys in the order they were written.
      CREATE TABLE objects (
        id bigint PRIMARY KEY DEFAULT nextval('object_ids'),
        type text NOT NULL,
        owner bigint,
        created_time bigint NOT NULL,
        updated_time bigint NOT NULL,
        data json NOT NULL
      );
      ALTER SEQUENCE object_ids OWNED BY objects.id;

      CREATE TABLE associations (
        id1 bigint NOT NULL,
        type text NOT NULL,
        id2 bigint NOT NULL,
        time bigint NOT NULL,
        data json,
        PRIMARY KEY (id1, type, id2)
      );
      -- Every page is a range scan of this index, whatever the size of the list.
      CREATE INDEX associations_by_time ON associations (id1, type, time DESC, id2 DESC);
      -- Lets deleteObject find the associations pointing at the deleted object.
      CREATE INDEX associations_by_id2 ON associations (id2);

      CREATE TABLE counts (
        id1 bigint NOT NULL,
        type text NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (id1, type)
      );

      CREATE TABLE apps (
        id bigint PRIMARY KEY REFERENCES objects (id) ON DELETE CASCADE,
        secret text NOT NULL,
        id_key text NOT NULL,
        require_proof boolean NOT NULL DEFAULT false,
        business_id bigint,
        created_time bigint NOT NULL
      );

      CREATE TABLE tokens (
        hash text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('user', 'app')),
        app_id bigint NOT NULL,
        user_id bigint,
        scopes json NOT NULL,
        issued_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX tokens_by_app_user ON tokens (app_id, user_id);

      CREATE TABLE grants (
        app_id bigint NOT NULL,
        user_id bigint NOT NULL,
        scope text NOT NULL,
        status text NOT NULL CHECK (status IN ('granted', 'declined')),
        PRIMARY KEY (app_id, user_id, scope)
      );

      CREATE TABLE settings (
        key text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'sign-in credentials and OAuth authorization codes',
    sql: `
      CREATE TABLE credentials (
        user_id bigint PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL
      );

      CREATE TABLE auth_codes (
        hash text PRIMARY KEY,
        app_id bigint NOT NULL,
        user_id bigint NOT NULL,
        redirect_uri text NOT NULL,
        scopes json NOT NULL,
        expires_at bigint NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: 'indexes that find everything of one person, for deleting test users',
    sql: `
      CREATE INDEX objects_by_owner ON objects (owner);
      CREATE INDEX grants_by_user ON grants (user_id);
      CREATE INDEX tokens_by_user ON tokens (user_id);
      CREATE INDEX auth_codes_by_user ON auth_codes (user_id);
    `,
  },
  {
    version: 4,
    description: 'revoked tokens, so a token of a de-authorised app is told apart from an unknown one',
    sql: `
      CREATE TABLE revoked_tokens (
        hash text PRIMARY KEY,
        app_id bigint NOT NULL,
        user_id bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires_at) WHERE expires_at <> 0;
    `,
  },
  {
    version: 5,
    description: "apps' registered redirect URIs",
    sql: `
      -- A JSON array of strings; apps made before this step have none.
      ALTER TABLE apps ADD COLUMN redirect_uris json NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 6,
    description: "tombstones of deleted apps, and the slot of each app's scoped user ids",
    sql: `
      -- Only the id stays, so a deleted app's credentials and tokens get their own answer.
      CREATE TABLE deleted_apps (
        id bigint PRIMARY KEY,
        deleted_time bigint NOT NULL
      );
      -- Apps made before slots keep slot 0, so the user ids they handed out stay the same.
      ALTER TABLE apps ADD COLUMN id_tag integer NOT NULL DEFAULT 0;
      CREATE INDEX apps_by_id_tag ON apps (id_tag);
    `,
  },
  {
    version: 7,
    description: 'calls counted per minute, for rate limits over a rolling hour',
    sql: `
      -- A subject is what a limit applies to (an app, one user of an app); old minutes are dropped as calls come.
      CREATE TABLE call_counts (
        subject text NOT NULL,
        minute bigint NOT NULL,
        calls bigint NOT NULL,
        PRIMARY KEY (subject, minute)
      );
    `,
  },
  {
    version: 8,
    description: 'a notification on every change to the auth tables, for the caches of tokens',
    sql: `
      -- Every process caches what a token stands for until told that an app, a token, a grant or
      -- a credential changed. The triggers notify in the very transaction of the change (delivered
      -- at its commit), so no revocation, whichever code or process makes it, goes unnoticed. The
      -- payload names the schema, as several Loom graphs may share one database.
      CREATE FUNCTION auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('loom_auth_changed', current_schema());
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER apps_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON apps
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
      CREATE TRIGGER tokens_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
      CREATE TRIGGER grants_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON grants
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
      CREATE TRIGGER credentials_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON credentials
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
    `,
  },
  {
    version: 9,
    description: 'webhook subscriptions, the outbox of changes and the delivery queue',
    sql: `
      CREATE TABLE webhook_subscriptions (
        app_id bigint NOT NULL,
        object text NOT NULL,
        callback_url text NOT NULL,
        fields json NOT NULL,
        verify_token text NOT NULL,
        active boolean NOT NULL,
        created_time bigint NOT NULL,
        PRIMARY KEY (app_id, object)
      );

      -- Written in the transaction of each change; emptied as changes become deliveries.
      CREATE TABLE webhook_changes (
        id bigserial PRIMARY KEY,
        subject bigint NOT NULL,
        field text NOT NULL,
        time bigint NOT NULL,
        app_id bigint,
        lease_until bigint NOT NULL DEFAULT 0
      );

      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        app_id bigint NOT NULL,
        object text NOT NULL,
        callback_url text NOT NULL,
        body text NOT NULL,
        entry_count integer NOT NULL,
        created_time bigint NOT NULL,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        attempts json NOT NULL DEFAULT '[]',
        next_attempt_at bigint NOT NULL,
        failing_since bigint,
        lease_until bigint NOT NULL DEFAULT 0
      );
      -- The worker's question: which pending deliveries are due.
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, id);
    `,
  },
  {
    version: 10,
    description: 'live settings notify on the auth channel (control state on the same change channel)',
    sql: `
      -- What every process of a server must agree on (the control plane's clock and faults) lives
      -- in the settings named live.*; a change to one notifies like an auth change, so a process
      -- reads that state again only when told, not on every request.
      CREATE FUNCTION live_setting_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (TG_OP <> 'INSERT' AND OLD.key LIKE 'live.%') OR (TG_OP <> 'DELETE' AND NEW.key LIKE 'live.%') THEN
          PERFORM pg_notify('loom_auth_changed', current_schema());
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER live_settings_changed AFTER INSERT OR UPDATE OR DELETE ON settings
        FOR EACH ROW EXECUTE FUNCTION live_setting_changed();
    `,
  },
  {
    version: 11,
    description: 'page-tokens: the page a page token acts for',
    sql: `
      -- A page token is its administrator's token acting as the page: kind stays 'user' (whose
      -- grants it rests on and whose removal of the app revokes it) and page_id names the page.
      ALTER TABLE tokens ADD COLUMN page_id bigint;
    `,
  },
  {
    version: 12,
    description: 'full-text search: the declaration of what is indexed, the tsvector index and the trigger that keeps it',
    sql: `
      -- Which data keys of which object types the index holds, as the schema declares them. The
      -- store rewrites it (and reindexes the types that changed) when the declaration changes;
      -- a database made before this step gets its index built then, from its stored objects.
      CREATE TABLE search_fields (
        type text NOT NULL,
        role text NOT NULL CHECK (role IN ('text', 'latitude', 'longitude')),
        key text NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (type, role, position)
      );

      -- One row per indexed object, keyed by its id like every other table.
      CREATE TABLE search_documents (
        id bigint PRIMARY KEY,
        kind text NOT NULL,
        latitude double precision,
        longitude double precision,
        document tsvector NOT NULL
      );
      CREATE INDEX search_documents_words ON search_documents USING GIN (document);

      -- What an object of a declared type puts in the index; no row for other types.
      CREATE FUNCTION search_document(object objects) RETURNS TABLE (
        id bigint, kind text, latitude double precision, longitude double precision, document tsvector
      ) LANGUAGE sql STABLE AS $$
        -- A position that is not a number is no position: it never fails the object's write.
        SELECT object.id, object.type,
          (SELECT CASE WHEN json_typeof(object.data #> string_to_array(f.key, '.')) = 'number'
                  THEN (object.data #>> string_to_array(f.key, '.'))::double precision END
             FROM search_fields f WHERE f.type = object.type AND f.role = 'latitude'),
          (SELECT CASE WHEN json_typeof(object.data #> string_to_array(f.key, '.')) = 'number'
                  THEN (object.data #>> string_to_array(f.key, '.'))::double precision END
             FROM search_fields f WHERE f.type = object.type AND f.role = 'longitude'),
          to_tsvector('simple', coalesce((SELECT string_agg(object.data #>> string_to_array(f.key, '.'), ' ' ORDER BY f.position)
            FROM search_fields f WHERE f.type = object.type AND f.role = 'text'), ''))
        WHERE EXISTS (SELECT 1 FROM search_fields f WHERE f.type = object.type)
      $$;

      CREATE FUNCTION search_follow_objects() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          DELETE FROM search_documents WHERE id = OLD.id;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO search_documents SELECT * FROM search_document(NEW);
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER objects_search AFTER INSERT OR DELETE OR UPDATE OF type, data ON objects
        FOR EACH ROW EXECUTE FUNCTION search_follow_objects();
    `,
  },
  {
    version: 13,
    description: 'declared-schema: applied declarations with their pinned storage keys, and the keys of declared nodes',
    sql: `
      -- Every declaration applied by loom schema apply: the merged text, its hash, and the storage
      -- keys pinned so far (JSON), so renames keep their data and prune knows what is gone.
      CREATE TABLE schema_versions (
        version integer PRIMARY KEY,
        name text NOT NULL,
        hash text NOT NULL,
        text text NOT NULL,
        storage text NOT NULL,
        source text NOT NULL,
        app_id bigint NOT NULL,
        applied_time bigint NOT NULL
      );
      -- The team's own keys of declared nodes: (object type, key) names one object.
      CREATE TABLE declared_keys (
        type text NOT NULL,
        key text NOT NULL,
        id bigint NOT NULL,
        PRIMARY KEY (type, key)
      );
      CREATE INDEX declared_keys_by_id ON declared_keys (id);
    `,
  },
  {
    version: 14,
    description: 'an applied schema notifies on the auth channel (schema versions on the same change channel)',
    sql: `
      -- A serving process takes a newly applied declaration before its next request: the apply
      -- notifies where every process listens anyway, so no process has to poll for it.
      CREATE TRIGGER schema_versions_changed AFTER INSERT ON schema_versions
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
    `,
  },
  {
    version: 15,
    description: 'objects by the storage keys of their uploaded files',
    sql: `
      -- Whether any object still points at a file (a read that missed it, a delete, a sweep of
      -- the media folder) is a lookup, not a scan of the graph. Partial: most objects have none.
      -- A snapshot's copy of the table gets the same (media-keys.ts).
      CREATE INDEX objects_image_key ON objects ((data #>> '{image,key}')) WHERE (data #>> '{image,key}') IS NOT NULL;
      CREATE INDEX objects_video_key ON objects ((data #>> '{video,key}')) WHERE (data #>> '{video,key}') IS NOT NULL;
    `,
  },
];

export const latestVersion = migrations.length;

/** First key of the two-key advisory lock that guards migrations ("loom" in ASCII). */
const MIGRATION_LOCK = 0x6c6f6f6d;

/**
 * Brings the schema up to the latest version in one transaction. A transaction-scoped advisory
 * lock, keyed by the schema's name, makes processes that start at once take turns: the first
 * migrates, the others then find nothing left to do. DDL is transactional in PostgreSQL, so a
 * failed step leaves the schema as it was. Returns the version the schema ends at.
 */
export async function migrate(client: pg.ClientBase, schema: string): Promise<number> {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration "${migration.description}" has version ${migration.version}, expected ${index + 1}`);
    }
  });
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema]);
    // Creating only when missing: CREATE SCHEMA needs a privilege on the database even when the
    // schema exists, which a deployment's role may rightly lack.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        description text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const current = await schemaVersion(client);
    if (current > latestVersion) {
      throw new Error(
        `The database is at schema version ${current} but this Loom only knows versions up to ${latestVersion}; upgrade Loom to open it.`,
      );
    }
    for (const migration of migrations.slice(current)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  return schemaVersion(client);
}

async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return rows[0]?.version ?? 0;
}
