/**
 * A declaration's `permissions:` (and their earlier short form, `scopes:`) as the schema's
 * Permissions: each one's text, group, versions and the permission it stands in for, every
 * reference checked. The Graph API's catalogue is compiled here like a team's own permissions.
 */
import { Permissions, PUBLIC_PROFILE, type PermissionDef } from '../schema/permissions.js';
import type { RuleName, VersionBounds } from '../schema/versions.js';
import type { Declaration, PermissionDecl } from './model.js';

/** The parts of the compiler permissions need. */
export interface PermissionCompiler {
  readonly declaration: Declaration;
  problem(key: string, message: string): void;
  versions(decl: { since?: string; until?: string; versions?: string }, at: string): RuleName | VersionBounds | undefined;
}

export function compilePermissions(c: PermissionCompiler): Permissions {
  const { scopes = {}, permissions = {}, permission_groups: groups = {} } = c.declaration;
  const entries = new Map<string, { decl: PermissionDecl; at: string }>();
  for (const [name, description] of Object.entries(scopes)) entries.set(name, { decl: description, at: `scopes.${name}` });
  for (const [name, decl] of Object.entries(permissions)) {
    if (entries.has(name)) c.problem(`permissions.${name}`, 'is declared under scopes too');
    entries.set(name, { decl, at: `permissions.${name}` });
  }

  const list: PermissionDef[] = [];
  let alwaysGranted: string | undefined;
  let pageTokens: string | undefined;
  for (const [name, { decl, at }] of entries) {
    if (typeof decl === 'string') {
      list.push({ name, description: decl });
      continue;
    }
    const permission: PermissionDef = { name, description: decl.description };
    if (decl.group !== undefined) {
      if (Object.hasOwn(groups, decl.group)) permission.group = decl.group;
      else c.problem(`${at}.group`, `"${decl.group}" is not one of the permission_groups`);
    }
    const versions = c.versions(decl, at);
    if (versions) permission.versions = versions;
    if (decl.always_granted) {
      if (alwaysGranted !== undefined) c.problem(`${at}.always_granted`, `${alwaysGranted} is always granted already; at most one permission is`);
      else if (versions) c.problem(`${at}.always_granted`, 'a permission granted with every authorisation is offered in every version');
      alwaysGranted = name;
    }
    if (decl.page_tokens) {
      if (pageTokens !== undefined) c.problem(`${at}.page_tokens`, `${pageTokens} gives page tokens already; at most one permission does`);
      else permission.pageTokens = true;
      pageTokens ??= name;
    }
    for (const [key, standsFor] of [['reads', decl.reads], ['as_page', decl.as_page]] as const) {
      if (standsFor === undefined) continue;
      if (standsFor === name || !entries.has(standsFor)) c.problem(`${at}.${key}`, `"${standsFor}" is not another declared permission`);
      else if (key === 'reads') permission.reads = standsFor;
      else permission.asPage = standsFor;
    }
    list.push(permission);
  }
  if (alwaysGranted === undefined) {
    alwaysGranted = PUBLIC_PROFILE.name;
    const declared = entries.get(alwaysGranted);
    if (!declared) list.unshift(PUBLIC_PROFILE);
    else if (list.find((permission) => permission.name === alwaysGranted)?.versions) {
      c.problem(declared.at, 'a permission granted with every authorisation is offered in every version');
    }
  }
  return new Permissions(list, alwaysGranted, Object.entries(groups).map(([name, description]) => ({ name, description })));
}
