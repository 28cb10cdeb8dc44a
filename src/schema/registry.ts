/**
 * The set of node types Loom serves, indexed for the engine's lookups. Mistakes in the type
 * declarations (a repeated name, an edge to a type that does not exist) are caught when the
 * schema is built, at start-up, rather than surfacing as odd answers to some later request.
 */
import type { AppWrites, WritePolicy } from './behaviours.js';
import type { AccessRule, EdgeDef, FieldDef, NodeTypeDef } from './definition.js';
import { Permissions } from './permissions.js';
import { DEFAULT_API_VERSION, PUBLISHED_VERSIONS, rules, type ApiVersion } from './versions.js';

export interface SearchTarget {
  type: NodeTypeDef;
  /** Only nodes with a position are listed (places among pages). */
  located: boolean;
  /** What items carry without `fields` before v2.4. */
  fullDefaultFields?: readonly string[];
}

interface TypeIndex {
  fields: Map<string, FieldDef>;
  edges: Map<string, EdgeDef>;
}

export interface SchemaOptions {
  /** What apps may ask a person for: every permission a type, field, edge or write names is one of them (public_profile alone when absent). */
  permissions?: Permissions;
  /** The type a user token stands for (`me`); `user` when absent. */
  principal?: string;
  /** The app a declared schema is served by: the `app` rule passes for its app tokens only. */
  ownApp?: number;
  /** What an app token may change or delete (its test users, its own settings); nothing when absent. */
  appWrites?: AppWrites;
  /** The package's own rules for people's writes where a type declares none; none when absent. */
  writePolicy?: WritePolicy;
}

export class Schema {
  readonly types: readonly NodeTypeDef[];
  /** The type a user token stands for: `me` names the viewer's node of it, and it owns itself. */
  readonly principal: string;
  readonly permissions: Permissions;
  readonly ownApp: number | undefined;
  readonly appWrites: AppWrites | undefined;
  readonly writePolicy: WritePolicy | undefined;
  private readonly byName = new Map<string, NodeTypeDef>();
  private readonly indexes = new Map<string, TypeIndex>();
  /** The node type each word of `GET /search?type=…` lists, and whether only located nodes. */
  private readonly searchTargets = new Map<string, SearchTarget>();

  constructor(types: readonly NodeTypeDef[], options: SchemaOptions = {}) {
    this.types = types;
    this.principal = options.principal ?? 'user';
    this.permissions = options.permissions ?? Permissions.none();
    this.ownApp = options.ownApp;
    this.appWrites = options.appWrites;
    this.writePolicy = options.writePolicy;
    for (const type of types) {
      if (this.byName.has(type.name)) throw new Error(`Schema: node type "${type.name}" is declared twice`);
      this.byName.set(type.name, type);
      this.indexes.set(type.name, indexType(type));
      this.requirePermission(type.scope, `node type "${type.name}"`);
      for (const item of [...type.fields, ...type.edges]) this.requirePermission(item.scope, `"${type.name}.${item.name}"`);
      for (const as of type.search?.as ?? []) {
        if (this.searchTargets.has(as.type)) throw new Error(`Schema: search type "${as.type}" is claimed twice`);
        if (as.located && !type.search?.point) throw new Error(`Schema: "${type.name}" is found as "${as.type}" by position but declares none`);
        for (const name of as.fullDefaultFields ?? []) {
          if (!type.fields.some((field) => field.name === name)) throw new Error(`Schema: default search field "${type.name}.${name}" is not a declared field`);
        }
        this.searchTargets.set(as.type, { type, located: as.located === true, fullDefaultFields: as.fullDefaultFields });
      }
    }
    for (const type of types) {
      for (const edge of type.edges) {
        this.requirePermission(edge.post?.scope, `a POST to "${type.name}.${edge.name}"`);
        this.requirePermission(edge.itemsGranted, `the items of "${type.name}.${edge.name}"`);
        if (!this.byName.has(edge.target)) {
          throw new Error(`Schema: edge "${type.name}.${edge.name}" targets unknown node type "${edge.target}"`);
        }
        if (edge.post && !edge.post.byApp && edge.post.scope === undefined) {
          throw new Error(`Schema: a POST to "${type.name}.${edge.name}" names no permission`);
        }
        if (edge.post?.unlinks?.some((link) => link.from === 'created' || link.to === 'created')) {
          throw new Error(`Schema: the POST to "${type.name}.${edge.name}" cannot remove links of the node it creates`);
        }
        const request = edge.post?.request !== undefined ? edge.post : undefined;
        if (request && (request.creates || request.links.length === 0 || request.links.some((link) => link.from === 'created' || link.to === 'created'))) {
          throw new Error(`Schema: the request POST to "${type.name}.${edge.name}" must link existing nodes only`);
        }
      }
    }
  }

  private requirePermission(scope: string | undefined, where: string): void {
    if (scope !== undefined && !this.permissions.get(scope)) throw new Error(`Schema: ${where} needs permission "${scope}", which the schema does not declare`);
  }

  /** What the store's full-text index holds: the searchable keys of each type that declares some. */
  searchable(): Array<{ type: string; fields: readonly string[]; point?: { latitude: string; longitude: string } }> {
    return this.types.flatMap((type) => (type.search ? [{ type: type.name, fields: type.search.fields, point: type.search.point }] : []));
  }

  /** The node type `GET /search?type=<word>` lists; undefined when no type declares that word. */
  searchTarget(word: string): SearchTarget | undefined {
    return this.searchTargets.get(word);
  }

  type(name: string): NodeTypeDef | undefined {
    return this.byName.get(name);
  }

  /** The field of that name in this API version (by default, the version unversioned calls get). */
  field(type: NodeTypeDef, name: string, version: ApiVersion = DEFAULT_API_VERSION): FieldDef | undefined {
    const field = this.indexes.get(type.name)?.fields.get(name);
    return field && rules.allows(field.versions, version) ? field : undefined;
  }

  /** The edge of that name in this API version. */
  edge(type: NodeTypeDef, name: string, version: ApiVersion = DEFAULT_API_VERSION): EdgeDef | undefined {
    const edge = this.indexes.get(type.name)?.edges.get(name);
    return edge && rules.allows(edge.versions, version) ? edge : undefined;
  }

  /** The type's fields and edges that exist in this API version, in declaration order. */
  fieldsIn(type: NodeTypeDef, version: ApiVersion): FieldDef[] {
    return type.fields.filter((field) => rules.allows(field.versions, version));
  }

  edgesIn(type: NodeTypeDef, version: ApiVersion): EdgeDef[] {
    return type.edges.filter((edge) => rules.allows(edge.versions, version));
  }

  /** What a read without `fields` sends in this API version, for a node read by its own path (`root`) or inside another answer. */
  defaultFields(type: NodeTypeDef, version: ApiVersion, root: boolean): string[] {
    const full = type.fullDefaultFields;
    const names = !full || rules.has('minimal-default-fields', version) ? type.defaultFields : root ? full.names : (full.listed ?? full.names);
    const defaultHere = (name: string) => full?.versions?.[name] === undefined || rules.has(full.versions[name], version);
    return names.filter((name) => defaultHere(name) && (this.field(type, name, version) ?? this.edge(type, name, version)));
  }

  /** The default names sent only to some viewers in this API version, with the read rule each needs (NodeTypeDef.fullDefaultFields). */
  defaultsShownTo(type: NodeTypeDef, version: ApiVersion): Readonly<Record<string, AccessRule>> | undefined {
    return rules.has('minimal-default-fields', version) ? undefined : type.fullDefaultFields?.shownTo;
  }

  /**
   * What a node shows in this API version where a reference field names it (`from`, `album`)
   * and the request names nothing inside it: fields only, so a reference never lists an edge.
   */
  referenceFields(type: NodeTypeDef, version: ApiVersion): string[] {
    const richer = type.fullDefaultFields?.reference;
    const names = !richer || rules.has('minimal-default-fields', version) ? type.defaultFields : richer;
    return names.filter((name) => this.field(type, name, version));
  }

  /** The names of the permissions an app can request in this API version, sorted. */
  allScopes(version: ApiVersion = DEFAULT_API_VERSION): string[] {
    return this.permissions.offered(version).map((permission) => permission.name).sort();
  }
}

/**
 * Fields and edges share one namespace (`fields=` names either), so a name may be used once per
 * type. The index holds them with the type's scope applied, so lookups see what each one needs.
 */
function indexType(type: NodeTypeDef): TypeIndex {
  const fields = new Map<string, FieldDef>();
  const edges = new Map<string, EdgeDef>();
  const scoped = <T extends FieldDef | EdgeDef>(item: T): T =>
    item.scope === undefined && type.scope !== undefined && item.name !== 'id' ? { ...item, scope: type.scope } : item;
  for (const field of type.fields) {
    if (fields.has(field.name)) throw new Error(`Schema: field "${type.name}.${field.name}" is declared twice`);
    fields.set(field.name, scoped(field));
  }
  for (const edge of type.edges) {
    if (edges.has(edge.name)) throw new Error(`Schema: edge "${type.name}.${edge.name}" is declared twice`);
    const field = fields.get(edge.name);
    // A name may be a field in some versions and an edge in others (a page's `likes`), never both at once.
    if (field && PUBLISHED_VERSIONS.some(({ name }) => rules.allows(field.versions, name) && rules.allows(edge.versions, name))) {
      throw new Error(`Schema: "${type.name}.${edge.name}" is declared both as a field and as an edge`);
    }
    edges.set(edge.name, scoped(edge));
  }
  for (const name of type.defaultFields) {
    if (!fields.has(name)) throw new Error(`Schema: default field "${type.name}.${name}" is not a declared field`);
  }
  for (const name of type.fullDefaultFields?.reference ?? []) {
    if (!fields.has(name)) throw new Error(`Schema: reference field "${type.name}.${name}" is not a declared field`);
  }
  for (const name of [...(type.fullDefaultFields?.names ?? []), ...(type.fullDefaultFields?.listed ?? [])]) {
    if (!fields.has(name) && !edges.has(name)) throw new Error(`Schema: default field "${type.name}.${name}" is neither a field nor an edge`);
  }
  return { fields, edges };
}
