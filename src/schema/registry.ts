/**
 * The set of node types Loom serves, indexed for the engine's lookups. Mistakes in the type
 * declarations (a repeated name, an edge to a type that does not exist) are caught when the
 * schema is built, at start-up, rather than surfacing as odd answers to some later request.
 */
import type { EdgeDef, FieldDef, NodeTypeDef } from './definition.js';
import { albumType } from './types/album.js';
import { applicationType } from './types/application.js';
import { commentType } from './types/comment.js';
import { pageType } from './types/page.js';
import { photoType } from './types/photo.js';
import { postType } from './types/post.js';
import { userType } from './types/user.js';
import { offeredPermissions } from './permissions.js';


interface TypeIndex {
  fields: Map<string, FieldDef>;
  edges: Map<string, EdgeDef>;
}

export class Schema {
  readonly types: readonly NodeTypeDef[];
  private readonly byName = new Map<string, NodeTypeDef>();
  private readonly indexes = new Map<string, TypeIndex>();
  private readonly scopes = new Set(offeredPermissions().map((permission) => permission.name));

  constructor(types: readonly NodeTypeDef[]) {
    this.types = types;
    for (const type of types) {
      if (this.byName.has(type.name)) throw new Error(`Schema: node type "${type.name}" is declared twice`);
      this.byName.set(type.name, type);
      this.indexes.set(type.name, indexType(type));
      if (type.scope !== undefined) this.scopes.add(type.scope);
      for (const item of [...type.fields, ...type.edges]) {
        if (item.scope !== undefined) this.scopes.add(item.scope);
      }
    }
    for (const type of types) {
      for (const edge of type.edges) {
        if (!this.byName.has(edge.target)) {
          throw new Error(`Schema: edge "${type.name}.${edge.name}" targets unknown node type "${edge.target}"`);
        }
        if (edge.post && edge.post.by !== 'app' && edge.post.scope === undefined) {
          throw new Error(`Schema: a POST to "${type.name}.${edge.name}" names no permission`);
        }
        const request = edge.post?.request !== undefined ? edge.post : undefined;
        if (request && (request.creates || request.links.length === 0 || request.links.some((link) => link.from === 'created' || link.to === 'created'))) {
          throw new Error(`Schema: the request POST to "${type.name}.${edge.name}" must link existing nodes only`);
        }
      }
    }
  }

  /** Every node type Loom ships. */
  static default(): Schema {
    return new Schema([userType, postType, commentType, photoType, albumType, pageType, applicationType]);
  }

  type(name: string): NodeTypeDef | undefined {
    return this.byName.get(name);
  }

  field(type: NodeTypeDef, name: string): FieldDef | undefined {
    return this.indexes.get(type.name)?.fields.get(name);
  }

  edge(type: NodeTypeDef, name: string): EdgeDef | undefined {
    return this.indexes.get(type.name)?.edges.get(name);
  }

  /** The permissions an app can request: the catalogue's (permissions.ts) and any the schema relies on, sorted. */
  allScopes(): string[] {
    return [...this.scopes].sort();
  }

  /** Whether an app may request this permission. */
  offersScope(name: string): boolean {
    return this.scopes.has(name);
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
    if (fields.has(edge.name)) {
      throw new Error(`Schema: "${type.name}.${edge.name}" is declared both as a field and as an edge`);
    }
    edges.set(edge.name, scoped(edge));
  }
  for (const name of type.defaultFields) {
    if (!fields.has(name)) throw new Error(`Schema: default field "${type.name}.${name}" is not a declared field`);
  }
  return { fields, edges };
}
