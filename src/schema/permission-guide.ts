/**
 * The permissions of a schema as the person choosing them sees them (the Explorer's token panel):
 * in their declared groups, each with what granting it means and what it unlocks. What each one
 * unlocks is read from the types, so the explanation cannot drift from what the engine enforces.
 */
import type { Schema } from './registry.js';

interface PermissionInfo {
  name: string;
  description: string;
  /** `type.field` names readable with this permission. */
  fields: string[];
  /** `type/edge` names readable with this permission. */
  edges: string[];
  /** `type/edge` names this permission lets a person POST to through the app. */
  writes: string[];
}

export interface PermissionGroup {
  name: string;
  description: string;
  permissions: PermissionInfo[];
}

/** Where permissions without a group of their own are listed, last. */
const OTHER: Omit<PermissionGroup, 'permissions'> = { name: 'Other', description: 'Permissions this schema declares.' };

/** Every permission an app may request in the default version, in the schema's groups and order. */
export function describePermissions(schema: Schema): PermissionGroup[] {
  const unlocks = new Map<string, PermissionInfo>();
  for (const { name, description } of schema.permissions.offered()) unlocks.set(name, { name, description, fields: [], edges: [], writes: [] });
  for (const type of schema.types) {
    for (const field of type.fields) {
      // A type-level scope (a photo's user_photos) covers every field but the id.
      const scope = field.scope ?? (field.name === 'id' ? undefined : type.scope);
      if (scope) unlocks.get(scope)?.fields.push(`${type.name}.${field.name}`);
    }
    for (const edge of type.edges) {
      const scope = edge.scope ?? type.scope;
      if (scope) unlocks.get(scope)?.edges.push(`${type.name}/${edge.name}`);
      // A POST an app makes with its own token (test users) needs no person's permission.
      const write = edge.post && !edge.post.byApp ? edge.post.scope : undefined;
      if (write) unlocks.get(write)?.writes.push(`${type.name}/${edge.name}`);
    }
  }

  const groups = new Map<string, PermissionGroup>(schema.permissions.groups.map((group) => [group.name, { ...group, permissions: [] }]));
  if (!groups.has(OTHER.name)) groups.set(OTHER.name, { ...OTHER, permissions: [] });
  for (const permission of schema.permissions.offered()) {
    groups.get(permission.group ?? OTHER.name)!.permissions.push(unlocks.get(permission.name)!);
  }
  return [...groups.values()].filter((group) => group.permissions.length > 0);
}
