/**
 * How both stores shape rows into what the Store interface answers, where the shaping is the
 * same whatever the database.
 */
import type { AppRecord, Grant, GrantStatus, NewApp } from './auth-store.js';
import type { ObjectId } from '../ids.js';

/** A count for every id1 asked for: the rows' counts, 0 for an id1 without a row. */
export function zeroFilledCounts(id1s: readonly ObjectId[], rows: Iterable<{ id1: number; count: number }>): Map<ObjectId, number> {
  const counts = new Map<ObjectId, number>(id1s.map((id1) => [id1, 0]));
  for (const row of rows) counts.set(row.id1, row.count);
  return counts;
}

/** Grant rows grouped by user, in row order; a user without rows is absent. */
export function grantsByUser(rows: Iterable<{ user_id: number; scope: string; status: GrantStatus }>): Map<ObjectId, Grant[]> {
  const grants = new Map<ObjectId, Grant[]>();
  for (const row of rows) {
    let list = grants.get(row.user_id);
    if (list === undefined) grants.set(row.user_id, (list = []));
    list.push({ scope: row.scope, status: row.status });
  }
  return grants;
}

/** The record of an app just created under `id`, with the defaults its store filled in. */
export function createdAppRecord(id: ObjectId, app: NewApp): AppRecord {
  return {
    id,
    name: app.name,
    secret: app.secret,
    idKey: app.idKey,
    idTag: app.idTag ?? 0,
    requireProof: app.requireProof ?? false,
    businessId: app.businessId ?? null,
    createdTime: app.createdTime,
    redirectUris: [...(app.redirectUris ?? [])],
    apiVersion: app.apiVersion ?? null,
  };
}

/** The data of an app's object: its name, and its API version when one was chosen. */
export function appData(app: NewApp): Record<string, unknown> {
  return app.apiVersion ? { name: app.name, api_version: app.apiVersion } : { name: app.name };
}
