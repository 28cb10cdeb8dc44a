/** The statements of app administration: fixed app ids, changing an app's settings, deleting it, its tombstones. */
import { statement } from './statements.js';

export const appStatements = {
  selectIdTaken: statement(
    'selectIdTaken',
    'SELECT 1 AS found FROM objects WHERE id = $1 UNION ALL SELECT 1 FROM deleted_apps WHERE id = $1',
  ),
  /** As insertApp, under an id the caller chose: a fixed id never moves the object_ids sequence. */
  insertFixedApp: statement(
    'insertFixedApp',
    `WITH object AS (
       INSERT INTO objects (id, type, owner, created_time, updated_time, data)
       VALUES ($9::bigint, 'application', NULL, $1::bigint, $1::bigint, $2::json) RETURNING id
     )
     INSERT INTO apps (id, secret, id_key, require_proof, business_id, created_time, redirect_uris, id_tag)
     SELECT id, $3::text, $4::text, $5::boolean, $6::bigint, $1::bigint, $7::json, $8::integer FROM object RETURNING id`,
  ),
  /** A null parameter leaves its column as it is; business_id has its own flag, as null is a value it may take. */
  updateApp: statement(
    'updateApp',
    `UPDATE apps SET secret = coalesce($1::text, secret), require_proof = coalesce($2::boolean, require_proof),
       business_id = CASE WHEN $3::boolean THEN $4::bigint ELSE business_id END, redirect_uris = coalesce($5::json, redirect_uris)
     WHERE id = $6 RETURNING id`,
  ),
  /** Moves the app's user tokens to revoked_tokens, where they stay to be answered for. */
  revokeTokensOfApp: statement(
    'revokeTokensOfApp',
    `WITH moved AS (DELETE FROM tokens WHERE app_id = $1 RETURNING hash, app_id, user_id, expires_at, scopes)
     INSERT INTO revoked_tokens (hash, app_id, user_id, expires_at, scopes) SELECT * FROM moved WHERE user_id IS NOT NULL
     ON CONFLICT (hash) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, expires_at = excluded.expires_at, scopes = excluded.scopes`,
  ),
  deleteGrantsOfApp: statement('deleteGrantsOfApp', 'DELETE FROM grants WHERE app_id = $1'),
  deleteAuthCodesOfApp: statement('deleteAuthCodesOfApp', 'DELETE FROM auth_codes WHERE app_id = $1'),
  deleteAppRow: statement('deleteAppRow', 'DELETE FROM apps WHERE id = $1 RETURNING id'),
  insertDeletedApp: statement(
    'insertDeletedApp',
    'INSERT INTO deleted_apps (id, deleted_time) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET deleted_time = excluded.deleted_time',
  ),
  selectDeletedApps: statement('selectDeletedApps', 'SELECT id FROM deleted_apps WHERE id = ANY($1::bigint[])'),
};
