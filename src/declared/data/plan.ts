/**
 * What an import or an export of own data needs to know of an applied declaration, worked out
 * once: each type's storage key, external key and owner field, how each field is stored, which
 * edges a line may write (and their inverses), and which lists Loom derives from ref fields.
 */
import type { NodeTypeDef } from '../../schema/definition.js';
import { compileDeclaration } from '../compile.js';
import type { CodeModule, Declaration, EdgeDecl, FieldDecl, StorageKeys, TypeDecl } from '../model.js';

export interface FieldPlan {
  name: string;
  decl: FieldDecl;
  /** Key in the object's data. */
  storage: string;
  /** The type a `ref<T>` field (or a list of them) names. */
  refTo?: string;
}

/** A list Loom keeps from a ref field: the node the field names lists the node holding it. */
interface DerivedList {
  /** Ref field of the holding type; `owner` lists follow the owner column. */
  field: string;
  /** Association type of the list, on the named node. */
  storage: string;
  /** A datetime field of the holding node giving the item's time; its created time when absent. */
  timeField?: string;
}

export interface EdgePlan {
  name: string;
  to: string;
  storage: string;
  /** The list a `backed_by` edge mirrors: an edge line for it changes nothing. */
  derived: boolean;
  /** Association type of the other direction, written with this one. */
  inverseStorage?: string;
}

export interface TypePlan {
  name: string;
  storage: string;
  /** Field that holds the external key, when the type declares one. */
  keyField?: string;
  /** Ref field naming the owner (stored in the owner column). */
  ownerField?: string;
  /** Fields a line may give, by name (stored ones and the owner field). */
  fields: Map<string, FieldPlan>;
  edges: Map<string, EdgePlan>;
  /** Lists of other nodes that hold nodes of this type, kept from this type's ref fields. */
  derivedLists: DerivedList[];
  /** The node type the engine serves: its checks of written values and its counters (declared sums) hold for imports too. */
  def: NodeTypeDef;
}

export interface DataPlan {
  schema: string;
  version: number;
  principal?: string;
  types: Map<string, TypePlan>;
  /** Types by storage key, for an export. */
  byStorage: Map<string, TypePlan>;
}

const REF = /^ref<(\w+)>$/;
const LIST = /^list<(.+)>$/;

/** The type a ref field, or a list of refs, points at. */
function refTarget(type: string): string | undefined {
  const list = LIST.exec(type);
  return REF.exec(list ? list[1]! : type)?.[1];
}

/** Stored fields: neither derived from a source (the owner aside) nor computed. */
function isStored(field: FieldDecl): boolean {
  return field.computed === undefined && (field.source === undefined || field.source === 'owner');
}

/** The plan of a declaration with the storage keys pinned so far (new names get their defaults, as in serving). */
export function planData(declaration: Declaration, pinned: StorageKeys, code: CodeModule | undefined): DataPlan {
  const compiled = compileDeclaration(declaration, code, pinned);
  const storage = compiled.storage;
  const defs = new Map(compiled.types.map((def) => [def.name, def]));
  const typeStorage = (name: string) => storage.types[name]!;
  const edgeStorage = (type: string, edge: string) => storage.edges[`${type}.${edge}`]!;
  const types = new Map<string, TypePlan>();
  const entries = Object.entries<TypeDecl>(declaration.types);
  for (const [name, decl] of entries) {
    const fields = new Map<string, FieldPlan>();
    for (const [fieldName, field] of Object.entries(decl.fields ?? {})) {
      if (!isStored(field)) continue;
      fields.set(fieldName, { name: fieldName, decl: field, storage: storage.fields[`${name}.${fieldName}`]!, refTo: refTarget(field.type ?? 'json') });
    }
    const edges = new Map<string, EdgePlan>();
    for (const [edgeName, edge] of Object.entries<EdgeDecl>(decl.edges ?? {})) {
      edges.set(edgeName, {
        name: edgeName,
        to: edge.to,
        storage: edgeStorage(name, edgeName),
        derived: edge.backed_by !== undefined,
        inverseStorage: edge.inverse === undefined ? undefined : edgeStorage(edge.to, edge.inverse),
      });
    }
    const ownerField = decl.owner ?? Object.entries(decl.fields ?? {}).find(([, field]) => field.source === 'owner')?.[0];
    types.set(name, { name, storage: typeStorage(name), keyField: decl.key, ownerField, fields, edges, derivedLists: [], def: defs.get(typeStorage(name))! });
  }
  // Each backed_by edge is a list kept on the node its holder's ref field names.
  for (const [name, decl] of entries) {
    for (const [edgeName, edge] of Object.entries<EdgeDecl>(decl.edges ?? {})) {
      if (edge.backed_by === undefined) continue;
      const [holder, field] = edge.backed_by.split('.') as [string, string];
      const time = typeof edge.time === 'object' ? edge.time.field : undefined;
      types.get(holder)?.derivedLists.push({ field, storage: edgeStorage(name, edgeName), timeField: time });
    }
  }
  return {
    schema: declaration.name,
    version: declaration.version,
    principal: declaration.principal,
    types,
    byStorage: new Map([...types.values()].map((type) => [type.storage, type])),
  };
}
