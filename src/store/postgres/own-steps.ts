/**
 * The steps of the schema that PostgreSQL says in its own words (functions, NOTIFY,
 * tsvector, its JSON operators). The one list of steps, which says where
 * each of these stands, is ../migration-steps.ts.
 */

export const AUTH_CHANGES = {
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
};

export const LIVE_SETTINGS_CHANGES = {
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
};

export const SEARCH_INDEX = {
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
};

export const APPLIED_SCHEMA_CHANGES = {
  description: 'an applied schema notifies on the auth channel (schema versions on the same change channel)',
  sql: `
      -- A serving process takes a newly applied declaration before its next request: the apply
      -- notifies where every process listens anyway, so no process has to poll for it.
      CREATE TRIGGER schema_versions_changed AFTER INSERT ON schema_versions
        FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
    `,
};

export const MEDIA_KEY_INDEXES = {
  description: 'objects by the storage keys of their uploaded files',
  sql: `
      -- Whether any object still points at a file (a read that missed it, a delete, a sweep of
      -- the media folder) is a lookup, not a scan of the graph. Partial: most objects have none.
      -- A snapshot's copy of the table gets the same (media-keys.ts).
      CREATE INDEX objects_image_key ON objects ((data #>> '{image,key}')) WHERE (data #>> '{image,key}') IS NOT NULL;
      CREATE INDEX objects_video_key ON objects ((data #>> '{video,key}')) WHERE (data #>> '{video,key}') IS NOT NULL;
    `,
};
