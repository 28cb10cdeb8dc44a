import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';

/** The statements of app administration: changing an app's settings, deleting it, its tombstones. */
export function prepareAppStatements(db: Database.Database) {
  return {
    selectAppExists: db.prepare<[ObjectId], { found: number }>('SELECT 1 AS found FROM apps WHERE id = ?'),
    // A null parameter leaves its column as it is; business_id has its own flag, as null is a value it may take.
    updateApp: db.prepare<[string | null, number | null, number, ObjectId | null, string | null, ObjectId]>(
      `UPDATE apps SET secret = coalesce(?, secret), require_proof = coalesce(?, require_proof),
         business_id = CASE WHEN ? THEN ? ELSE business_id END, redirect_uris = coalesce(?, redirect_uris)
       WHERE id = ?`,
    ),
    revokeTokensOfApp: db.prepare<[ObjectId]>(
      `INSERT OR REPLACE INTO revoked_tokens (hash, app_id, user_id, expires_at, scopes)
       SELECT hash, app_id, user_id, expires_at, scopes FROM tokens WHERE app_id = ? AND user_id IS NOT NULL`,
    ),
    deleteTokensOfApp: db.prepare<[ObjectId]>('DELETE FROM tokens WHERE app_id = ?'),
    deleteGrantsOfApp: db.prepare<[ObjectId]>('DELETE FROM grants WHERE app_id = ?'),
    deleteAuthCodesOfApp: db.prepare<[ObjectId]>('DELETE FROM auth_codes WHERE app_id = ?'),
    deleteAppRow: db.prepare<[ObjectId]>('DELETE FROM apps WHERE id = ?'),
    insertDeletedApp: db.prepare<[ObjectId, number]>('INSERT OR REPLACE INTO deleted_apps (id, deleted_time) VALUES (?, ?)'),
    selectDeletedApps: db.prepare<[string], { id: number }>('SELECT id FROM deleted_apps WHERE id IN (SELECT value FROM json_each(?))'),
  };
}
