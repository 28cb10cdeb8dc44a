import type Database from 'better-sqlite3';

/**
 * One step of the SQLite schema. Steps are applied in order and never edited once released:
 * a change to the schema is a new step appended to the list.
 */
export interface Migration {
  /** Numbered 1, 2, 3, … without gaps; `PRAGMA user_version` holds the last one applied. */
  version: number;
  description: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'objects, associations, counts and the auth tables',
    sql: `
      -- AUTOINCREMENT so the id of a deleted object is never handed to a new one: ids are public.
      CREATE TABLE objects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        type TEXT NOT NULL,
        owner INTEGER,
        created_time INTEGER NOT NULL,
        updated_time INTEGER NOT NULL,
        data TEXT NOT NULL
      );

      CREATE TABLE associations (
        id1 INTEGER NOT NULL,
        type TEXT NOT NULL,
        id2 INTEGER NOT NULL,
        time INTEGER NOT NULL,
        data TEXT,
        PRIMARY KEY (id1, type, id2)
      ) WITHOUT ROWID;
      -- Every page is a range scan of this index, whatever the size of the list.
      CREATE INDEX associations_by_time ON associations (id1, type, time DESC, id2 DESC);
      -- Lets deleteObject find the associations pointing at the deleted object.
      CREATE INDEX associations_by_id2 ON associations (id2);

      CREATE TABLE counts (
        id1 INTEGER NOT NULL,
        type TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (id1, type)
      ) WITHOUT ROWID;

      CREATE TABLE apps (
        id INTEGER PRIMARY KEY REFERENCES objects (id) ON DELETE CASCADE,
        secret TEXT NOT NULL,
        id_key TEXT NOT NULL,
        require_proof INTEGER NOT NULL DEFAULT 0,
        business_id INTEGER,
        created_time INTEGER NOT NULL
      );

      CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('user', 'app')),
        app_id INTEGER NOT NULL,
        user_id INTEGER,
        scopes TEXT NOT NULL,
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX tokens_by_app_user ON tokens (app_id, user_id);

      CREATE TABLE grants (
        app_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        scope TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('granted', 'declined')),
        PRIMARY KEY (app_id, user_id, scope)
      ) WITHOUT ROWID;

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: 'sign-in credentials and OAuth authorization codes',
    sql: `
      CREATE TABLE credentials (
        user_id INTEGER PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL
      );

      CREATE TABLE auth_codes (
        hash TEXT PRIMARY KEY,
        app_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        redirect_uri TEXT NOT NULL,
        scopes TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
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
        hash TEXT PRIMARY KEY,
        app_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires_at) WHERE expires_at != 0;
    `,
  },
  {
    version: 5,
    description: "apps' registered redirect URIs",
    sql: `
      -- A JSON array of strings; apps made before this step have none.
      ALTER TABLE apps ADD COLUMN redirect_uris TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 6,
    description: "tombstones of deleted apps, and the slot of each app's scoped user ids",
    sql: `
      -- Only the id stays, so a deleted app's credentials and tokens get their own answer.
      CREATE TABLE deleted_apps (
        id INTEGER PRIMARY KEY,
        deleted_time INTEGER NOT NULL
      );
      -- Apps made before slots keep slot 0, so the user ids they handed out stay the same.
      ALTER TABLE apps ADD COLUMN id_tag INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX apps_by_id_tag ON apps (id_tag);
    `,
  },
  {
    version: 7,
    description: 'calls counted per minute, for rate limits over a rolling hour',
    sql: `
      -- A subject is what a limit applies to (an app, one user of an app); old minutes are dropped as calls come.
      CREATE TABLE call_counts (
        subject TEXT NOT NULL,
        minute INTEGER NOT NULL,
        calls INTEGER NOT NULL,
        PRIMARY KEY (subject, minute)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 8,
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
      CREATE TRIGGER apps_changed_on_insert AFTER INSERT ON apps BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER apps_changed_on_update AFTER UPDATE ON apps BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER apps_changed_on_delete AFTER DELETE ON apps BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER tokens_changed_on_insert AFTER INSERT ON tokens BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER tokens_changed_on_update AFTER UPDATE ON tokens BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER tokens_changed_on_delete AFTER DELETE ON tokens BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER grants_changed_on_insert AFTER INSERT ON grants BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER grants_changed_on_update AFTER UPDATE ON grants BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER grants_changed_on_delete AFTER DELETE ON grants BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER credentials_changed_on_insert AFTER INSERT ON credentials BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER credentials_changed_on_update AFTER UPDATE ON credentials BEGIN UPDATE auth_version SET version = version + 1; END;
      CREATE TRIGGER credentials_changed_on_delete AFTER DELETE ON credentials BEGIN UPDATE auth_version SET version = version + 1; END;
    `,
  },
  {
    version: 9,
    description: 'webhook subscriptions, the outbox of changes and the delivery queue',
    sql: `
      CREATE TABLE webhook_subscriptions (
        app_id INTEGER NOT NULL,
        object TEXT NOT NULL,
        callback_url TEXT NOT NULL,
        fields TEXT NOT NULL,
        verify_token TEXT NOT NULL,
        active INTEGER NOT NULL,
        created_time INTEGER NOT NULL,
        PRIMARY KEY (app_id, object)
      ) WITHOUT ROWID;

      -- Written in the transaction of each change; emptied as changes become deliveries.
      CREATE TABLE webhook_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subject INTEGER NOT NULL,
        field TEXT NOT NULL,
        time INTEGER NOT NULL,
        app_id INTEGER,
        lease_until INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        app_id INTEGER NOT NULL,
        object TEXT NOT NULL,
        callback_url TEXT NOT NULL,
        body TEXT NOT NULL,
        entry_count INTEGER NOT NULL,
        created_time INTEGER NOT NULL,
        status TEXT NOT NULL,
        attempt_count INTEGER NOT NULL DEFAULT 0,
        attempts TEXT NOT NULL DEFAULT '[]',
        next_attempt_at INTEGER NOT NULL,
        failing_since INTEGER,
        lease_until INTEGER NOT NULL DEFAULT 0
      );
      -- The worker's question: which pending deliveries are due.
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, id);
    `,
  },
  {
    version: 10,
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
  },
  {
    version: 11,
    description: 'page-tokens: the page a page token acts for',
    sql: `
      -- A page token is its administrator's token acting as the page: kind stays 'user' (whose
      -- grants it rests on and whose removal of the app revokes it) and page_id names the page.
      ALTER TABLE tokens ADD COLUMN page_id INTEGER;
    `,
  },
  {
    version: 12,
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
  },
  {
    version: 13,
    description: 'declared-schema: applied declarations with their pinned storage keys, and the keys of declared nodes',
    sql: `
      -- Every declaration applied by loom schema apply: the merged text, its hash, and the storage
      -- keys pinned so far (JSON), so renames keep their data and prune knows what is gone.
      CREATE TABLE schema_versions (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        hash TEXT NOT NULL,
        text TEXT NOT NULL,
        storage TEXT NOT NULL,
        source TEXT NOT NULL,
        app_id INTEGER NOT NULL,
        applied_time INTEGER NOT NULL
      );
      -- The team's own keys of declared nodes: (object type, key) names one object.
      CREATE TABLE declared_keys (
        type TEXT NOT NULL,
        key TEXT NOT NULL,
        id INTEGER NOT NULL,
        PRIMARY KEY (type, key)
      ) WITHOUT ROWID;
      CREATE INDEX declared_keys_by_id ON declared_keys (id);
    `,
  },
  {
    version: 14,
    description: 'an applied schema moves the auth version (schema versions on the same change channel)',
    sql: `
      -- A serving process takes a newly applied declaration before its next request: the apply
      -- moves the version every request reads anyway, so no process has to poll for it.
      CREATE TRIGGER schema_versions_changed AFTER INSERT ON schema_versions
        BEGIN UPDATE auth_version SET version = version + 1; END;
    `,
  },
  {
    version: 15,
    description: 'pages read from the index alone: associations_by_time carries the data column',
    sql: `
      -- A page read then never visits the table: most associations have no data, so the index
      -- grows by little, and each row of a page saves a lookup by primary key.
      DROP INDEX associations_by_time;
      CREATE INDEX associations_by_time ON associations (id1, type, time DESC, id2 DESC, data);
    `,
  },
  {
    version: 16,
    description: 'objects by the storage keys of their uploaded files',
    sql: `
      -- Whether any object still points at a file (a read that missed it, a delete, a sweep of
      -- the media folder) is a lookup, not a scan of the graph. Partial: most objects have none.
      -- The expressions are those media-keys.ts queries with, which SQLite needs to use them.
      CREATE INDEX objects_image_key ON objects (json_extract(data, '$.image.key')) WHERE json_extract(data, '$.image.key') IS NOT NULL;
      CREATE INDEX objects_video_key ON objects (json_extract(data, '$.video.key')) WHERE json_extract(data, '$.video.key') IS NOT NULL;
    `,
  },
];

export const latestVersion = migrations.length;

/**
 * Brings the database up to the latest version. Each step runs in its own immediate transaction
 * that re-reads the version first, so two processes opening a fresh file at once cannot both
 * apply the same step. Returns the version the database ends at.
 */
export function migrate(db: Database.Database): number {
  const current = userVersion(db);
  if (current > latestVersion) {
    throw new Error(
      `The database is at schema version ${current} but this Loom only knows versions up to ${latestVersion}; upgrade Loom to open it.`,
    );
  }
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration "${migration.description}" has version ${migration.version}, expected ${index + 1}`);
    }
  });
  for (const migration of migrations.slice(current)) {
    const apply = db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      // PRAGMA takes no bound parameters; the version is an integer from the list above.
      db.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
  return userVersion(db);
}

function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
