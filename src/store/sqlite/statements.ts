import type Database from 'better-sqlite3';
import type { GrantStatus } from '../auth-store.js';
import type { ObjectId } from '../../ids.js';
import {
  SCHEMA_VERSION_COLUMNS,
  type SchemaVersionRow,
  type AppRow,
  type AuthCodeRow,
  type CredentialsRow,
  type TokenRow,
} from '../rows.js';

interface RevokedTokenRow {
  hash: string;
  app_id: number;
  user_id: number;
  expires_at: number;
  scopes: string;
}

export interface GrantRow {
  user_id: number;
  scope: string;
  status: GrantStatus;
}

const APP_COLUMNS = `a.id, json_extract(o.data, '$.name') AS name, a.secret, a.id_key, a.id_tag, a.require_proof,
  a.business_id, a.created_time, a.redirect_uris, json_extract(o.data, '$.api_version') AS api_version`;

/** An object's columns in the order selectObjects reads them: id, type, owner, created_time, updated_time, data. */
export type ObjectTuple = [number, string, number | null, number, number, string];

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: Database.Database) {
  return {
    // Rows as arrays (raw): a page of people reads many, and an array is cheaper to hand over than an object.
    selectObjects: db
      .prepare<[string], ObjectTuple>(
        `SELECT id, type, owner, created_time, updated_time, data FROM objects
         WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .raw(true),
    // One id, the most common read (a node by its id, `me`): a point read, without json_each.
    selectObject: db
      .prepare<[ObjectId], ObjectTuple>('SELECT id, type, owner, created_time, updated_time, data FROM objects WHERE id = ?')
      .raw(true),
    selectObjectData: db.prepare<[ObjectId], { data: string }>('SELECT data FROM objects WHERE id = ?'),
    // The id is the sequence's next, named explicitly: SQLite's own choice would follow the
    // largest id present, which may be a fixed app id far above the sequence.
    insertObject: db.prepare<[string, ObjectId | null, number, number, string]>(
      `INSERT INTO objects (id, type, owner, created_time, updated_time, data)
       VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'objects'), 0) + 1, ?, ?, ?, ?, ?)`,
    ),
    insertFixedObject: db.prepare<[ObjectId, string, number, number, string]>(
      'INSERT INTO objects (id, type, owner, created_time, updated_time, data) VALUES (?, ?, NULL, ?, ?, ?)',
    ),
    selectSequence: db.prepare<[], { seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'objects'`),
    resetSequence: db.prepare<[number]>(`UPDATE sqlite_sequence SET seq = ? WHERE name = 'objects'`),
    selectIdTaken: db.prepare<[ObjectId, ObjectId], { found: number }>(
      'SELECT 1 AS found FROM objects WHERE id = ? UNION ALL SELECT 1 FROM deleted_apps WHERE id = ?',
    ),
    updateObject: db.prepare<[string, number, ObjectId]>('UPDATE objects SET data = ?, updated_time = ? WHERE id = ?'),
    deleteObject: db.prepare<[ObjectId]>('DELETE FROM objects WHERE id = ?'),
    deleteKeysOf: db.prepare<[ObjectId]>('DELETE FROM declared_keys WHERE id = ?'),
    selectOwned: db.prepare<[ObjectId], { id: number }>('SELECT id FROM objects WHERE owner = ?'),

    insertAssociation: db.prepare<[ObjectId, string, ObjectId, number, string | null]>(
      'INSERT OR IGNORE INTO associations (id1, type, id2, time, data) VALUES (?, ?, ?, ?, ?)',
    ),
    deleteAssociation: db.prepare<[ObjectId, string, ObjectId]>(
      'DELETE FROM associations WHERE id1 = ? AND type = ? AND id2 = ?',
    ),
    selectAssociationExists: db.prepare<[ObjectId, string, ObjectId], { found: number }>(
      'SELECT 1 AS found FROM associations WHERE id1 = ? AND type = ? AND id2 = ?',
    ),
    deleteOutgoing: db.prepare<[ObjectId]>('DELETE FROM associations WHERE id1 = ?'),
    selectIncoming: db.prepare<[ObjectId], { id1: number; type: string; removed: number }>(
      'SELECT id1, type, COUNT(*) AS removed FROM associations WHERE id2 = ? GROUP BY id1, type',
    ),
    deleteIncoming: db.prepare<[ObjectId]>('DELETE FROM associations WHERE id2 = ?'),
    selectAssociatedIds: db.prepare<[ObjectId, string], { id2: number }>(
      'SELECT id2 FROM associations WHERE id1 = ? AND type IN (SELECT value FROM json_each(?))',
    ),

    selectListed: db.prepare<[ObjectId, string], { id2: ObjectId }>('SELECT id2 FROM associations WHERE id1 = ? AND type = ?'),
    selectListedGranted: db.prepare<[ObjectId, string, ObjectId, string], { id2: ObjectId }>(
      `SELECT a.id2 FROM associations a WHERE a.id1 = ? AND a.type = ?
         AND EXISTS (SELECT 1 FROM grants g WHERE g.app_id = ? AND g.user_id = a.id2 AND g.scope = ? AND g.status = 'granted')`,
    ),
    selectCount: db.prepare<[ObjectId, string], { count: number }>('SELECT count FROM counts WHERE id1 = ? AND type = ?'),
    incrementCount: db.prepare<[ObjectId, string]>(
      `INSERT INTO counts (id1, type, count) VALUES (?, ?, 1)
       ON CONFLICT (id1, type) DO UPDATE SET count = count + 1`,
    ),
    decrementCount: db.prepare<[number, ObjectId, string]>(
      'UPDATE counts SET count = count - ? WHERE id1 = ? AND type = ?',
    ),
    deleteCountsOf: db.prepare<[ObjectId]>('DELETE FROM counts WHERE id1 = ?'),
    adjustCount: db.prepare<[ObjectId, string, number]>(
      `INSERT INTO counts (id1, type, count) VALUES (?, ?, ?)
       ON CONFLICT (id1, type) DO UPDATE SET count = count + excluded.count`,
    ),
    upsertDeclaredKey: db.prepare<[string, string, ObjectId]>(
      'INSERT INTO declared_keys (type, key, id) VALUES (?, ?, ?) ON CONFLICT (type, key) DO UPDATE SET id = excluded.id',
    ),
    selectDeclaredIds: db.prepare<[string, string], { key: string; id: number }>(
      'SELECT key, id FROM declared_keys WHERE type = ? AND key IN (SELECT value FROM json_each(?))',
    ),
    selectLatestSchemaVersion: db.prepare<[], SchemaVersionRow>(
      `SELECT ${SCHEMA_VERSION_COLUMNS} FROM schema_versions ORDER BY version DESC LIMIT 1`,
    ),
    insertSchemaVersion: db.prepare<[string, string, string, string, string, ObjectId, number], SchemaVersionRow>(
      `INSERT INTO schema_versions (version, name, hash, text, storage, source, app_id, applied_time)
       SELECT coalesce(max(version), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM schema_versions
       RETURNING ${SCHEMA_VERSION_COLUMNS}`,
    ),

    insertApp: db.prepare<[ObjectId, string, string, number, number, ObjectId | null, number, string]>(
      'INSERT INTO apps (id, secret, id_key, id_tag, require_proof, business_id, created_time, redirect_uris) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    selectAppsByIdTag: db.prepare<[number], AppRow>(`SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id WHERE a.id_tag = ?`),
    selectApps: db.prepare<[string], AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id
       WHERE a.id IN (SELECT value FROM json_each(?))`,
    ),
    selectAllApps: db.prepare<[], AppRow>(`SELECT ${APP_COLUMNS} FROM apps a JOIN objects o ON o.id = a.id ORDER BY a.id`),

    upsertToken: db.prepare<[string, string, ObjectId, ObjectId | null, string, number, number, ObjectId | null]>(
      `INSERT OR REPLACE INTO tokens (hash, kind, app_id, user_id, scopes, issued_at, expires_at, page_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    selectAuthVersion: db.prepare<[], number>('SELECT version FROM auth_version').pluck(),
    selectToken: db.prepare<[string], TokenRow>(
      'SELECT hash, kind, app_id, user_id, scopes, issued_at, expires_at, page_id FROM tokens WHERE hash = ?',
    ),
    deleteTokens: db.prepare<[ObjectId, ObjectId]>('DELETE FROM tokens WHERE app_id = ? AND user_id = ?'),
    deleteTokensOfUser: db.prepare<[ObjectId]>('DELETE FROM tokens WHERE user_id = ?'),
    copyTokensToRevoked: db.prepare<[ObjectId, ObjectId]>(
      `INSERT OR REPLACE INTO revoked_tokens (hash, app_id, user_id, expires_at, scopes)
       SELECT hash, app_id, user_id, expires_at, scopes FROM tokens WHERE app_id = ? AND user_id = ?`,
    ),
    deleteRevokedTokensOfUser: db.prepare<[ObjectId]>('DELETE FROM revoked_tokens WHERE user_id = ?'),
    deleteStaleRevokedTokens: db.prepare<[number]>('DELETE FROM revoked_tokens WHERE expires_at != 0 AND expires_at <= ?'),
    selectRevokedToken: db.prepare<[string], RevokedTokenRow>(
      'SELECT hash, app_id, user_id, expires_at, scopes FROM revoked_tokens WHERE hash = ?',
    ),

    deleteGrants: db.prepare<[ObjectId, ObjectId]>('DELETE FROM grants WHERE app_id = ? AND user_id = ?'),
    deleteGrantsOfUser: db.prepare<[ObjectId]>('DELETE FROM grants WHERE user_id = ?'),
    insertGrant: db.prepare<[ObjectId, ObjectId, string, GrantStatus]>(
      // A grant as it already is stays untouched: no trigger fires and the undo log keeps no row of it.
      `INSERT INTO grants (app_id, user_id, scope, status) VALUES (?, ?, ?, ?)
       ON CONFLICT (app_id, user_id, scope) DO UPDATE SET status = excluded.status WHERE status IS NOT excluded.status`,
    ),
    /** The status comes twice: to set, and to leave a grant that already has it untouched. */
    updateGrantStatus: db.prepare<[GrantStatus, ObjectId, ObjectId, string, GrantStatus]>(
      'UPDATE grants SET status = ? WHERE app_id = ? AND user_id = ? AND scope = ? AND status IS NOT ?',
    ),
    selectGrantedAmong: db.prepare<[ObjectId, string], { user_id: ObjectId; scope: string }>(
      `SELECT user_id, scope FROM grants
       WHERE app_id = ? AND status = 'granted' AND user_id IN (SELECT value FROM json_each(?))`,
    ),
    selectAppGrants: db.prepare<[ObjectId, number], GrantRow>('SELECT user_id, scope, status FROM grants WHERE app_id = ? ORDER BY user_id, scope LIMIT ?'),
    selectGrants: db.prepare<[ObjectId, string], GrantRow>(
      `SELECT user_id, scope, status FROM grants
       WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))
       ORDER BY user_id, scope`,
    ),

    upsertCredentials: db.prepare<[ObjectId, string, string]>(
      `INSERT INTO credentials (user_id, email, password_hash) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, password_hash = excluded.password_hash`,
    ),
    selectCredentialsByEmail: db.prepare<[string], CredentialsRow>(
      'SELECT user_id, email, password_hash FROM credentials WHERE email = ?',
    ),
    selectCredentialsByUser: db.prepare<[ObjectId], CredentialsRow>(
      'SELECT user_id, email, password_hash FROM credentials WHERE user_id = ?',
    ),
    deleteCredentialsOfUser: db.prepare<[ObjectId]>('DELETE FROM credentials WHERE user_id = ?'),

    insertAuthCode: db.prepare<[string, ObjectId, ObjectId, string, string, number]>(
      `INSERT INTO auth_codes (hash, app_id, user_id, redirect_uri, scopes, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    deleteAuthCode: db.prepare<[string], AuthCodeRow>(
      'DELETE FROM auth_codes WHERE hash = ? RETURNING hash, app_id, user_id, redirect_uri, scopes, expires_at',
    ),
    deleteAuthCodesOfUser: db.prepare<[ObjectId]>('DELETE FROM auth_codes WHERE user_id = ?'),

    selectSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
    upsertSetting: db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    insertSettingIfAbsent: db.prepare<[string, string], { value: string }>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING value',
    ),
  };
}
