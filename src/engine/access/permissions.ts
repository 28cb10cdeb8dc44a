import { rules, type BooleanResult } from '../../schema/versions.js';
import { deauthorize, orderPermissions, revokePermission } from '../../auth/grants.js';
import { GraphError } from '../../errors.js';
import type { ReadContext } from '../request/context.js';
import { loadRoot } from '../read/node-ids.js';
import type { Json } from '../../ids.js';

/**
 * `GET /<user>/permissions/<p>`, `DELETE /<user>/permissions[/<p>]`: a person's answers to the
 * viewer's app, read or withdrawn by the person (user token) or by the app itself (app token).
 */
export async function answerPermissions(
  context: ReadContext,
  idText: string,
  method: 'get' | 'post' | 'delete',
  scope: string | undefined,
): Promise<Json | BooleanResult> {
  const { object, type } = await loadRoot(context, idText, method === 'delete' ? 'delete' : 'get');
  if (!context.schema.edge(type, 'permissions', context.version)) throw GraphError.unknownPath(`/permissions${scope === undefined ? '' : `/${scope}`}`);
  if (scope !== undefined) requireKnownPermission(context, scope);
  const { viewer, store } = context;
  if (viewer.kind !== 'app' && object.id !== viewer.userId) throw GraphError.permission();
  if (method === 'get') {
    const grants = (await store.getGrants(viewer.app.id, [object.id])).get(object.id) ?? [];
    const entry = orderPermissions(context.schema.permissions, grants).find((grant) => grant.scope === scope);
    return { data: entry ? [{ permission: entry.scope, status: entry.status }] : [] };
  }
  if (method !== 'delete') throw GraphError.objectNotFound(`${idText}/permissions`, method);
  if (scope === undefined) await deauthorize(store, viewer.app.id, object.id, context.now);
  else await revokePermission(store, context.schema.permissions, viewer.app.id, object.id, scope);
  return rules.booleanResult(context.version);
}

/**
 * Fails unless the schema offers the permission in the request's version. The wording of the
 * real service's answer for such a name is not confirmed; code 100 is.
 */
export function requireKnownPermission(context: ReadContext, name: string): void {
  if (!context.schema.permissions.offers(name, context.version)) throw GraphError.invalidParameter(`Invalid permission: ${name.slice(0, 64)}`);
}
