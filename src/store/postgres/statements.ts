/**
 * The fixed statements of the PostgreSQL store, each prepared once per connection under its
 * name. Batches travel as arrays (`= ANY($1)`, `unnest`), so one statement serves any batch size.
 */
export interface Statement {
  name: string;
  text: string;
}

export const statement = (name: string, text: string): Statement => ({ name: `loom.${name}`, text });

import { SCHEMA_VERSION_COLUMNS } from '../rows.js';

const OBJECT_COLUMNS = 'id, type, owner, created_time, updated_time, data';
const APP_COLUMNS = `a.id, o.data->>'name' AS name, a.secret, a.id_key, a.id_tag, a.require_proof, a.business_id, a.created_time,
  a.redirect_uris, o.data->>'api_version' AS api_version`;
const TOKEN_COLUMNS = 'hash, kind, app_id, user_id, scopes, issued_at, expires_at, page_id';
const AUTH_CODE_COLUMNS = 'hash, app_id, user_id, redirect_uri, scopes, expires_at';

export const statements = {
  // The data as its text, which the store's memo of decoded data compares before parsing it again.
  selectObjects: statement('selectObjects', 'SELECT id, type, owner, created_time, updated_time, data::text AS data FROM objects WHERE id = ANY($1::bigint[])'),
  /** The objects with the permissions each of them and each of their owners granted the app $2 (as JSON, see page-query.ts). */
  selectObjectsWithGrants: statement(
    'selectObjectsWithGrants',
    `SELECT o.id, o.type, o.owner, o.created_time, o.updated_time, o.data::text AS data,
       to_json(ARRAY(SELECT g.scope FROM grants g WHERE g.app_id = $2 AND g.user_id = o.id AND g.status = 'granted')) AS object_scopes,
       to_json(ARRAY(SELECT g.scope FROM grants g WHERE g.app_id = $2 AND g.user_id = o.owner AND g.status = 'granted')) AS owner_scopes
     FROM objects o WHERE o.id = ANY($1::bigint[])`,
  ),
  selectObjectDataForUpdate: statement('selectObjectDataForUpdate', 'SELECT data FROM objects WHERE id = $1 FOR UPDATE'),
  reserveObjectIds: statement(
    'reserveObjectIds',
    `SELECT nextval('object_ids') AS id FROM generate_series(1, $1::integer)`,
  ),
  insertObjects: statement(
    'insertObjects',
    `INSERT INTO objects (${OBJECT_COLUMNS})
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::json[])`,
  ),
  updateObject: statement('updateObject', 'UPDATE objects SET data = $1::json, updated_time = $2 WHERE id = $3'),

  /**
   * Inserts a run of associations and counts the ones that were new: a pair that exists already
   * (or twice in the run) is skipped by ON CONFLICT and never reaches the counts, so concurrent
   * writers of the same pair add one between them. Rows are written in key order, so concurrent
   * batches wait for each other's keys in one order and do not deadlock.
   */
  insertAssociations: statement(
    'insertAssociations',
    `WITH input AS (
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::json[])
         WITH ORDINALITY AS i (id1, type, id2, time, data, n)
     ), inserted AS (
       -- n last: of a pair named twice, the first op's row is the one inserted.
       INSERT INTO associations (id1, type, id2, time, data)
       SELECT id1, type, id2, time, data FROM input ORDER BY id1, type, id2, n
       ON CONFLICT DO NOTHING
       RETURNING id1, type, id2
     ), counted AS (
       INSERT INTO counts (id1, type, count)
       SELECT id1, type, count(*) FROM inserted GROUP BY id1, type ORDER BY id1, type
       ON CONFLICT (id1, type) DO UPDATE SET count = counts.count + excluded.count
     )
     SELECT id1, type, id2 FROM inserted`,
  ),
  deleteAssociation: statement(
    'deleteAssociation',
    `WITH gone AS (
       DELETE FROM associations WHERE id1 = $1 AND type = $2 AND id2 = $3 RETURNING id1, type
     ), counted AS (
       UPDATE counts c SET count = c.count - 1 FROM gone g WHERE c.id1 = g.id1 AND c.type = g.type
     )
     SELECT count(*)::integer AS removed FROM gone`,
  ),
  /** First half of deleting objects: their own lists and counts, self-associations included. */
  deleteOutgoing: statement(
    'deleteOutgoing',
    `WITH outgoing AS (DELETE FROM associations WHERE id1 = ANY($1::bigint[]))
     DELETE FROM counts WHERE id1 = ANY($1::bigint[])`,
  ),
  /** Second half: the lists they appear in, whose counts drop by what was removed, and the objects. */
  deleteIncomingAndObjects: statement(
    'deleteIncomingAndObjects',
    `WITH incoming AS (
       DELETE FROM associations WHERE id2 = ANY($1::bigint[]) RETURNING id1, type
     ), removed AS (
       SELECT id1, type, count(*) AS n FROM incoming GROUP BY id1, type
     ), counted AS (
       UPDATE counts c SET count = c.count - r.n FROM removed r WHERE c.id1 = r.id1 AND c.type = r.type
     ), gone AS (
       DELETE FROM objects WHERE id = ANY($1::bigint[]) RETURNING id
     )
     SELECT count(*)::integer AS deleted FROM gone`,
  ),
  /** What deleting a person takes along: the objects they own, then those listed under `cascade`. */
  selectBelongings: statement(
    'selectBelongings',
    `WITH owned AS (SELECT id FROM objects WHERE owner = $1)
     SELECT a.id2 AS id FROM owned o JOIN associations a ON a.id1 = o.id AND a.type = ANY($2::text[])
     UNION SELECT id FROM owned`,
  ),
  deleteAccessOfUser: statement(
    'deleteAccessOfUser',
    `WITH grants_gone AS (DELETE FROM grants WHERE user_id = $1),
          tokens_gone AS (DELETE FROM tokens WHERE user_id = $1),
          revoked_gone AS (DELETE FROM revoked_tokens WHERE user_id = $1),
          credentials_gone AS (DELETE FROM credentials WHERE user_id = $1)
     DELETE FROM auth_codes WHERE user_id = $1`,
  ),
  upsertDeclaredKeys: statement(
    'upsertDeclaredKeys',
    `INSERT INTO declared_keys (type, key, id) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
     ON CONFLICT (type, key) DO UPDATE SET id = excluded.id`,
  ),
  deleteKeysOf: statement('deleteKeysOf', 'DELETE FROM declared_keys WHERE id = ANY($1::bigint[])'),
  selectCount: statement('selectCount', 'SELECT count FROM counts WHERE id1 = $1 AND type = $2'),
  selectCounts: statement('selectCounts', 'SELECT id1, count FROM counts WHERE type = $1 AND id1 = ANY($2::bigint[])'),
  selectExisting: statement(
    'selectExisting',
    `SELECT a.id1, a.id2 FROM unnest($2::bigint[], $3::bigint[]) AS p (id1, id2)
     JOIN associations a ON a.id1 = p.id1 AND a.type = $1 AND a.id2 = p.id2`,
  ),

  insertApp: statement(
    'insertApp',
    `WITH object AS (
       INSERT INTO objects (type, owner, created_time, updated_time, data)
       VALUES ('application', NULL, $1::bigint, $1::bigint, $2::json) RETURNING id
     )
     INSERT INTO apps (id, secret, id_key, require_proof, business_id, created_time, redirect_uris, id_tag)
     SELECT id, $3::text, $4::text, $5::boolean, $6::bigint, $1::bigint, $7::json, $8::integer FROM object RETURNING id`,
  ),
  selectAppsByIdTag: statement(
    'selectAppsByIdTag',
    `SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id WHERE a.id_tag = $1`,
  ),
  selectApps: statement(
    'selectApps',
    `SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id WHERE a.id = ANY($1::bigint[])`,
  ),
  selectAllApps: statement('selectAllApps', `SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id ORDER BY a.id`),

  /** A run of tokens, each hash at most once. */
  upsertTokens: statement(
    'upsertTokens',
    `INSERT INTO tokens (${TOKEN_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::json[], $6::bigint[], $7::bigint[], $8::bigint[])
     ON CONFLICT (hash) DO UPDATE SET kind = excluded.kind, app_id = excluded.app_id, user_id = excluded.user_id,
       scopes = excluded.scopes, issued_at = excluded.issued_at, expires_at = excluded.expires_at, page_id = excluded.page_id`,
  ),
  selectToken: statement('selectToken', `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $1`),
  deleteTokens: statement('deleteTokens', 'DELETE FROM tokens WHERE app_id = $1 AND user_id = $2'),
  deleteStaleRevokedTokens: statement(
    'deleteStaleRevokedTokens',
    'DELETE FROM revoked_tokens WHERE expires_at <> 0 AND expires_at <= $1',
  ),
  /** Moves the tokens in one statement, so none is issued and lost between a copy and a delete. */
  revokeTokens: statement(
    'revokeTokens',
    `WITH moved AS (
       DELETE FROM tokens WHERE app_id = $1 AND user_id = $2 RETURNING hash, app_id, user_id, expires_at, scopes
     )
     INSERT INTO revoked_tokens (hash, app_id, user_id, expires_at, scopes) SELECT * FROM moved
     ON CONFLICT (hash) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, expires_at = excluded.expires_at, scopes = excluded.scopes`,
  ),
  selectRevokedToken: statement('selectRevokedToken', 'SELECT hash, app_id, user_id, expires_at, scopes FROM revoked_tokens WHERE hash = $1'),

  deleteGrants: statement('deleteGrants', 'DELETE FROM grants WHERE app_id = $1 AND user_id = ANY($2::bigint[])'),
  insertGrants: statement(
    'insertGrants',
    `INSERT INTO grants (app_id, user_id, scope, status)
     SELECT $1::bigint, * FROM unnest($2::bigint[], $3::text[], $4::text[])`,
  ),
  /** A run of one user's grant changes, each scope at most once; a grant as it already is stays untouched (no undo-log row). */
  upsertUserGrants: statement(
    'upsertUserGrants',
    `INSERT INTO grants (app_id, user_id, scope, status)
     SELECT $1::bigint, $2::bigint, * FROM unnest($3::text[], $4::text[])
     ON CONFLICT (app_id, user_id, scope) DO UPDATE SET status = excluded.status WHERE grants.status IS DISTINCT FROM excluded.status`,
  ),
  updateUserGrants: statement(
    'updateUserGrants',
    `UPDATE grants g SET status = c.status FROM unnest($3::text[], $4::text[]) AS c (scope, status)
     WHERE g.app_id = $1 AND g.user_id = $2 AND g.scope = c.scope AND g.status IS DISTINCT FROM c.status`,
  ),
  selectGrants: statement(
    'selectGrants',
    `SELECT user_id, scope, status FROM grants WHERE app_id = $1 AND user_id = ANY($2::bigint[]) ORDER BY user_id, scope`,
  ),
  selectAppGrants: statement('selectAppGrants', 'SELECT user_id, scope, status FROM grants WHERE app_id = $1 ORDER BY user_id, scope LIMIT $2'),

  upsertCredentials: statement(
    'upsertCredentials',
    `INSERT INTO credentials (user_id, email, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, password_hash = excluded.password_hash`,
  ),
  selectCredentialsByEmail: statement(
    'selectCredentialsByEmail',
    'SELECT user_id, email, password_hash FROM credentials WHERE email = $1',
  ),
  selectCredentialsByUser: statement(
    'selectCredentialsByUser',
    'SELECT user_id, email, password_hash FROM credentials WHERE user_id = $1',
  ),

  insertAuthCodes: statement(
    'insertAuthCodes',
    `INSERT INTO auth_codes (${AUTH_CODE_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::json[], $6::bigint[])`,
  ),
  // DELETE … RETURNING is one statement, so two redemptions of one code cannot both win.
  deleteAuthCode: statement('deleteAuthCode', `DELETE FROM auth_codes WHERE hash = $1 RETURNING ${AUTH_CODE_COLUMNS}`),

  selectLatestSchemaVersion: statement('selectLatestSchemaVersion', `SELECT ${SCHEMA_VERSION_COLUMNS} FROM schema_versions ORDER BY version DESC LIMIT 1`),
  insertSchemaVersion: statement(
    'insertSchemaVersion',
    `INSERT INTO schema_versions (version, name, hash, text, storage, source, app_id, applied_time)
     SELECT coalesce(max(version), 0) + 1, $1, $2, $3, $4, $5, $6, $7 FROM schema_versions
     RETURNING ${SCHEMA_VERSION_COLUMNS}`,
  ),
  selectDeclaredIds: statement('selectDeclaredIds', 'SELECT key, id FROM declared_keys WHERE type = $1 AND key = ANY($2::text[])'),
  adjustCounts: statement(
    'adjustCounts',
    `INSERT INTO counts (id1, type, count) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
     ON CONFLICT (id1, type) DO UPDATE SET count = counts.count + excluded.count`,
  ),

  selectSetting: statement('selectSetting', 'SELECT value FROM settings WHERE key = $1'),
  upsertSetting: statement(
    'upsertSetting',
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ),

  insertSettingIfAbsent: statement(
    'insertSettingIfAbsent',
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value',
  ),

  lastObjectId: statement(
    'lastObjectId',
    'SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS last FROM object_ids',
  ),
  /** Moves the id sequence forwards to `$1`, never back. */
  advanceObjectIds: statement(
    'advanceObjectIds',
    `SELECT setval('object_ids', $1::bigint)
     WHERE $1::bigint > (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM object_ids)`,
  ),
};
