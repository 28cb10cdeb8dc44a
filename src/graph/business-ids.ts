import { businessOf } from '../auth/business-tokens.js';
import { grantedScopes } from '../auth/grants.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { parseFields } from '../query/parser.js';
import type { ReadContext } from '../engine/request/context.js';
import { renderObjectsById } from '../engine/read/render.js';
import type { Json } from '../ids.js';
import type { StoredNode } from '../schema/stored-node.js';

const APP_FIELDS = parseFields('name,namespace');

/**
 * `ids_for_business`: the ids a person has under each app of the viewing app's business that
 * they use (granted something to), the viewing app first. An app without a business is a
 * business of its own, so it lists just itself.
 */
export async function loadIdsForBusiness(context: ReadContext, people: readonly StoredNode[]): Promise<Map<number, Json>> {
  const business = businessOf(context.viewer.app);
  const viewingApp = context.viewer.app.id;
  const siblings = (await context.store.listApps()).filter((app) => businessOf(app) === business && app.id !== viewingApp);
  const personIds = people.map((person) => person.id);
  const [grants, apps] = await Promise.all([
    Promise.all(siblings.map((app) => context.store.getGrants(app.id, personIds))),
    renderObjectsById(context, [viewingApp, ...siblings.map((app) => app.id)], APP_FIELDS),
  ]);
  const result = new Map<number, Json>();
  for (const person of people) {
    const used = siblings.filter((_, index) => grantedScopes(grants[index]!.get(person.id)).size > 0);
    const data = [context.viewer.app, ...used].map((app) => ({ id: scopedIdsFor(app).scope(person.id), app: apps.get(app.id) }));
    result.set(person.id, { data });
  }
  return result;
}
