/**
 * The steps of the schema that SQLite says in its own words (triggers, FTS5, its JSON
 * functions). The one list of steps, which says where
 * each of these stands, is ../migration-steps.ts.
 */

/** Triggers that move the auth version on at every insert, update and delete in these tables, a line each. */
function authVersionTriggers(tables: readonly string[]): string {
  const events = ['INSERT', 'UPDATE', 'DELETE'];
  return tables
    .flatMap((table) => events.map((event) => `CREATE TRIGGER ${table}_changed_on_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN UPDATE auth_version SET version = version + 1; END;`))
    .join('\n      ');
}

export const AUTH_CHANGES = {
  description: 'a version of the auth tables, moved on by every change to them, for the caches of tokens',
  sql: `
      -- Every process caches what a token stands for while this number stays the same. Triggers
      -- move it on in the very transaction that changes an app, a token, a grant or a credential,
      -- so no revocation, whichever code or process makes it, can leave a cache serving a token.
      CREATE TABLE auth_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
      );
      INSERT INTO auth_version (id, version) VALUES (1, 0);
      ${authVersionTriggers(['apps', 'tokens', 'grants', 'credentials'])}
    `,
};

export const LIVE_SETTINGS_CHANGES = {
  description: 'live settings move the auth version (control state on the same change channel)',
  sql: `
      -- What every process of a server must agree on (the control plane's clock and faults) lives
      -- in the settings named live.*; a change to one moves the same number as an auth change, so
      -- a process reads that state again only when the number moved, not on every request.
      CREATE TRIGGER live_settings_changed_on_insert AFTER INSERT ON settings WHEN NEW.key LIKE 'live.%'
        BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER live_settings_changed_on_update AFTER UPDATE ON settings WHEN NEW.key LIKE 'live.%' OR OLD.key LIKE 'live.%'
        BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER live_settings_changed_on_delete AFTER DELETE ON settings WHEN OLD.key LIKE 'live.%'
        BEGIN UPDATE auth_version SET version = version + 1; END;
    `,
};

export const SEARCH_INDEX = {
  description: 'full-text search: the declaration of what is indexed, the FTS5 index and the triggers that keep it',
  sql: `
      -- Which data keys of which object types the index holds, as the schema declares them. The
      -- store rewrites it (and reindexes the types that changed) when the declaration changes;
      -- a database made before this step gets its index built then, from its stored objects.
      CREATE TABLE search_fields (
        type TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('text', 'latitude', 'longitude')),
        key TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (type, role, position)
      ) WITHOUT ROWID;

      -- What each object of a declared type puts in the index. A position that is not a number
      -- is no position.
      CREATE VIEW search_documents AS
        SELECT o.id, o.type,
          (SELECT json_extract(o.data, '$.' || f.key) FROM search_fields f
            WHERE f.type = o.type AND f.role = 'latitude' AND json_type(o.data, '$.' || f.key) IN ('integer', 'real')) AS latitude,
          (SELECT json_extract(o.data, '$.' || f.key) FROM search_fields f
            WHERE f.type = o.type AND f.role = 'longitude' AND json_type(o.data, '$.' || f.key) IN ('integer', 'real')) AS longitude,
          (SELECT group_concat(value, ' ') FROM (
             SELECT json_extract(o.data, '$.' || f.key) AS value FROM search_fields f
              WHERE f.type = o.type AND f.role = 'text' ORDER BY f.position)) AS body
        FROM objects o
        WHERE EXISTS (SELECT 1 FROM search_fields f WHERE f.type = o.type);

      -- The rowid is the object's id; only the body is tokenised, the rest rides along. Words
      -- keep their accents, as PostgreSQL's 'simple' configuration keeps them: both stores
      -- find the same objects.
      CREATE VIRTUAL TABLE search_index USING fts5(
        kind UNINDEXED, latitude UNINDEXED, longitude UNINDEXED, body,
        tokenize = 'unicode61 remove_diacritics 0'
      );

      CREATE TRIGGER search_on_insert AFTER INSERT ON objects BEGIN
        INSERT INTO search_index (rowid, kind, latitude, longitude, body)
          SELECT id, type, latitude, longitude, body FROM search_documents WHERE id = new.id;
      END;
      CREATE TRIGGER search_on_update AFTER UPDATE OF type, data ON objects BEGIN
        DELETE FROM search_index WHERE rowid = old.id;
        INSERT INTO search_index (rowid, kind, latitude, longitude, body)
          SELECT id, type, latitude, longitude, body FROM search_documents WHERE id = new.id;
      END;
      CREATE TRIGGER search_on_delete AFTER DELETE ON objects BEGIN
        DELETE FROM search_index WHERE rowid = old.id;
      END;
    `,
};

export const APPLIED_SCHEMA_CHANGES = {
  description: 'an applied schema moves the auth version (schema versions on the same change channel)',
  sql: `
      -- A serving process takes a newly applied declaration before its next request: the apply
      -- moves the version every request reads anyway, so no process has to poll for it.
      CREATE TRIGGER schema_versions_changed AFTER INSERT ON schema_versions
        BEGIN UPDATE auth_version SET version = version + 1; END;
    `,
};

export const PAGES_FROM_INDEX = {
  description: 'pages read from the index alone: associations_by_time carries the data column',
  sql: `
      -- A page read then never visits the table: most associations have no data, so the index
      -- grows by little, and each row of a page saves a lookup by primary key.
      DROP INDEX associations_by_time;
      CREATE INDEX associations_by_time ON associations (id1, type, time DESC, id2 DESC, data);
    `,
};

export const MEDIA_KEY_INDEXES = {
  description: 'objects by the storage keys of their uploaded files',
  sql: `
      -- Whether any object still points at a file (a read that missed it, a delete, a sweep of
      -- the media folder) is a lookup, not a scan of the graph. Partial: most objects have none.
      -- The expressions are those media-keys.ts queries with, which SQLite needs to use them.
      CREATE INDEX objects_image_key ON objects (json_extract(data, '$.image.key')) WHERE json_extract(data, '$.image.key') IS NOT NULL;
      CREATE INDEX objects_video_key ON objects (json_extract(data, '$.video.key')) WHERE json_extract(data, '$.video.key') IS NOT NULL;
    `,
};
