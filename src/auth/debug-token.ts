import { GraphError } from '../errors.js';
import { rules, type ApiVersion } from '../schema/versions.js';
import type { Store } from '../store/store.js';
import { inspectToken, scopedIdsFor, type Viewer } from './viewer.js';

/**
 * `GET /debug_token?input_token=…`: what a token of the caller's own app stands for. A token that
 * does not work is still described (status 200, `is_valid: false`, the error nested with
 * `subcode`); a token of another app is none of the caller's business. Before the
 * `debug-token-type` rule, the answer names no type or issue time, and an app token only its app's id.
 */
export async function debugToken(store: Store, caller: Viewer, inputToken: string | undefined, now: number, version: ApiVersion): Promise<{ data: Record<string, unknown> }> {
  const typed = rules.has('debug-token-type', version);
  if (!inputToken) throw GraphError.invalidParameter('The parameter input_token is required');
  const inspection = await inspectToken(store, inputToken, now);
  const app = inspection.valid ? inspection.viewer.app : inspection.app;
  if (app && app.id !== caller.app.id) {
    throw GraphError.invalidParameter('You must provide an app access token or a user access token that is an owner or developer of the app');
  }
  if (inspection.valid) {
    const { viewer, record } = inspection;
    const data: Record<string, unknown> = { app_id: String(viewer.app.id), ...(typed ? { type: viewer.kind.toUpperCase() } : {}) };
    if (typed || viewer.kind !== 'app') data.application = viewer.app.name;
    if (viewer.kind === 'app' || !record) return { data: { ...data, is_valid: true } };
    return {
      data: {
        ...data,
        expires_at: record.expiresAt,
        is_valid: true,
        ...(typed ? { issued_at: record.issuedAt } : {}),
        // A page token names its page, and as user_id the person who administers it.
        ...(viewer.kind === 'page' ? { profile_id: String(viewer.userId) } : {}),
        scopes: [...viewer.scopes],
        user_id: viewer.ids.scope(viewer.adminId ?? viewer.userId!),
      },
    };
  }
  const { error, known, userId } = inspection;
  const nested: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.subcode !== undefined) nested.subcode = error.subcode;
  if (!app) return { data: { error: nested, is_valid: false, scopes: [] } };
  return {
    data: {
      error: nested,
      app_id: String(app.id),
      ...(typed ? { type: 'USER' } : {}),
      application: app.name,
      expires_at: known?.expiresAt,
      is_valid: false,
      ...(typed ? { issued_at: known?.issuedAt } : {}),
      scopes: known?.scopes ?? [],
      user_id: userId === undefined ? undefined : scopedIdsFor(app).scope(userId),
    },
  };
}
