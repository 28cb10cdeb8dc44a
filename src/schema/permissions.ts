/**
 * The permissions a schema declares: every one an app may ask a person for, with what granting it
 * means and the API versions that offer it. declared/ compiles them from a declaration's
 * `permissions:` (the Graph API's catalogue is its package's permissions.loom.yaml); the dialog,
 * grants, test users and the engine's checks all ask this one list, so what is offered and what
 * is enforced cannot drift apart.
 */
import { DEFAULT_API_VERSION, rules, type ApiVersion, type RuleName, type VersionBounds } from './versions.js';

export interface PermissionDef {
  name: string;
  /** What granting it means, in a sentence the person reads before granting it. */
  description: string;
  /** The group it is listed under (a name of Permissions.groups); none: "Other". */
  group?: string;
  /** The versions that offer it; none: every version. Elsewhere it is refused like a name never declared. */
  versions?: RuleName | VersionBounds;
  /** In the versions that offer it, it also reads what this permission reads (read_stream what user_posts reads). */
  reads?: string;
  /** What a page token carries in its place when it acts as its page (publish_pages for publish_actions). */
  asPage?: string;
  /** Granting it lets the app have page tokens of the pages the person administers (the Graph's manage_pages); at most one permission does. */
  pageTokens?: true;
}

export interface PermissionGroupDef {
  name: string;
  /** What the group's permissions are about. */
  description: string;
}

/** Always granted where a schema marks no permission so: the name apps of the Graph API know it by. */
export const PUBLIC_PROFILE: PermissionDef = {
  name: 'public_profile',
  description: 'Who the person is: what needs no other permission. Always granted.',
};

export class Permissions {
  /**
   * Granted with every authorisation and revoked only with the whole app: a person has it once
   * they use the app, and a field or write that names it needs nothing more.
   */
  readonly alwaysGranted: string;
  /** In the order the declaration lists them. */
  readonly list: readonly PermissionDef[];
  readonly groups: readonly PermissionGroupDef[];
  /** The permission that lets an app have a person's page tokens; none: no app has them. */
  readonly pageTokens: string | undefined;
  private readonly byName: ReadonlyMap<string, PermissionDef>;

  constructor(list: readonly PermissionDef[], alwaysGranted: string, groups: readonly PermissionGroupDef[] = []) {
    this.list = list;
    this.groups = groups;
    this.alwaysGranted = alwaysGranted;
    const pageTokens = list.filter((permission) => permission.pageTokens);
    if (pageTokens.length > 1) throw new Error('Permissions: more than one permission gives page tokens');
    this.pageTokens = pageTokens[0]?.name;
    this.byName = new Map(list.map((permission) => [permission.name, permission]));
    if (this.byName.size !== list.length) throw new Error('Permissions: a permission is declared twice');
    if (!this.byName.has(alwaysGranted)) throw new Error(`Permissions: the always granted "${alwaysGranted}" is not declared`);
    const grouped = list.find((permission) => permission.group !== undefined && !groups.some((group) => group.name === permission.group));
    if (grouped) throw new Error(`Permissions: "${grouped.name}" is in group "${grouped.group}", which is not declared`);
  }

  /** The permissions of a schema that declares none: public_profile alone. */
  static none(): Permissions {
    return new Permissions([PUBLIC_PROFILE], PUBLIC_PROFILE.name);
  }

  /** A permission's entry, whatever versions offer it. */
  get(name: string): PermissionDef | undefined {
    return this.byName.get(name);
  }

  /** The permissions offered in this version, in declaration order. */
  offered(version: ApiVersion = DEFAULT_API_VERSION): PermissionDef[] {
    return this.list.filter((permission) => rules.allows(permission.versions, version));
  }

  /** Whether an app may ask for this permission in this version. */
  offers(name: string, version: ApiVersion = DEFAULT_API_VERSION): boolean {
    const permission = this.byName.get(name);
    return permission !== undefined && rules.allows(permission.versions, version);
  }

  /** The permissions that, in this version, read what `scope` reads: itself and those standing in for it. */
  readersOf(scope: string, version: ApiVersion): string[] {
    return [scope, ...this.list.filter((permission) => permission.reads === scope && rules.allows(permission.versions, version)).map((permission) => permission.name)];
  }

  /** The permission a write that needs `scope` asks of this kind of token: a page acts with its counterpart. */
  actingScope(kind: 'user' | 'app' | 'page', scope: string): string {
    return kind === 'page' ? (this.byName.get(scope)?.asPage ?? scope) : scope;
  }
}
