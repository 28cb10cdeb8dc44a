/**
 * Changing and deleting apps after they were registered. These two functions are the only way
 * an app's record changes or goes, so whatever keeps apps or tokens in memory hooks here.
 */
import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AppChanges, AppRecord } from '../store/auth-store.js';
import type { ObjectId } from '../ids.js';
import { appSecretProblem } from './apps.js';

/** What an app's owner may change; absent fields stay as they are. */
export interface AppUpdate {
  name?: string;
  secret?: string;
  requireProof?: boolean;
  businessId?: ObjectId | null;
  redirectUris?: readonly string[];
  /** Public settings shown on the application node. */
  namespace?: string;
  category?: string;
  description?: string;
  /** Who may see the app (`{"age":"21+"}`, `{"location":"DE"}`, …), kept as given. */
  restrictions?: Record<string, unknown>;
  /** The API version of the app's unversioned calls (a published one, checked by the caller). */
  apiVersion?: string;
  /** The app's call budget per rolling hour when rate limits are counted; null: the real formula. */
  callsPerHour?: number | null;
}

const MAX_NAME = 100;
const MAX_TEXT = 1000;
const NAMESPACE = /^[a-z][a-z0-9_-]{0,31}$/;

/** Why an update cannot be made, or undefined when it can. */
export function appUpdateProblem(update: AppUpdate): string | undefined {
  if (update.name !== undefined && (update.name.trim() === '' || update.name.length > MAX_NAME)) return `the name must be 1 to ${MAX_NAME} characters`;
  if (update.secret !== undefined) return appSecretProblem(update.secret);
  if (update.namespace !== undefined && update.namespace !== '' && !NAMESPACE.test(update.namespace)) {
    return 'the namespace must be a lower-case letter then up to 31 lower-case letters, digits, "_" or "-"';
  }
  for (const [name, value] of [['category', update.category], ['description', update.description]] as const) {
    if (value !== undefined && value.length > MAX_TEXT) return `the ${name} must be at most ${MAX_TEXT} characters`;
  }
  if (update.restrictions !== undefined && JSON.stringify(update.restrictions).length > MAX_TEXT) {
    return `the restrictions must be at most ${MAX_TEXT} characters of JSON`;
  }
  if (update.callsPerHour !== undefined && update.callsPerHour !== null && (!Number.isSafeInteger(update.callsPerHour) || update.callsPerHour < 1)) {
    return 'the calls per hour must be a positive whole number';
  }
  return undefined;
}

/** Changes an app (secret included); answers the app as it now is, or undefined when there is none. */
export async function updateApp(store: Store, appId: ObjectId, update: AppUpdate, now: number): Promise<AppRecord | undefined> {
  const problem = appUpdateProblem(update);
  if (problem) throw GraphError.invalidParameter(problem);
  const data: Record<string, unknown> = {};
  if (update.name !== undefined) data.name = update.name.trim();
  // An empty text removes the setting.
  for (const key of ['namespace', 'category', 'description'] as const) {
    if (update[key] !== undefined) data[key] = update[key] === '' ? null : update[key];
  }
  if (update.apiVersion !== undefined) data.api_version = update.apiVersion;
  if (update.callsPerHour !== undefined) data.calls_per_hour = update.callsPerHour;
  if (update.restrictions !== undefined) data.restrictions = Object.keys(update.restrictions).length === 0 ? null : update.restrictions;
  const changes: AppChanges = {
    secret: update.secret,
    requireProof: update.requireProof,
    businessId: update.businessId,
    redirectUris: update.redirectUris,
    data: Object.keys(data).length > 0 ? data : undefined,
  };
  return store.updateApp(appId, changes, now);
}

/**
 * Deletes an app with its grants, tokens and codes; from then on every use of its id, secret or
 * tokens answers "Application has been deleted". Its test users stay, as people without the app.
 */
export async function deleteApp(store: Store, appId: ObjectId, now: number): Promise<boolean> {
  return store.deleteApp(appId, now);
}
