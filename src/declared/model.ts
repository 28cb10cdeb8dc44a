/**
 * The parsed form of a declaration file (`*.loom.yaml` or `.json`): node types, their fields and
 * edges, who may read and write them, and the keys their data is stored under. Keys are
 * snake_case as in the file; `loom-schema.json` (shipped beside the package) describes the same
 * shape for editors and is what the loader validates against, so the two are kept in step here.
 *
 * How stored data relates to a declaration (what any writer of declared data, an import among
 * them, keeps to):
 * - a node is an object whose type is its type's storage key (`StorageKeys.types`); its fields
 *   live in `data` under their storage keys (`StorageKeys.fields['type.field']`); a ref field holds
 *   the internal id (a number) of the node it names; a `source: owner` field is the owner column;
 *   datetimes are unix seconds;
 * - an edge's items are associations of its storage key (`StorageKeys.edges['type.edge']`) from
 *   the node; `inverse:` edges hold the reverse association, `backed_by:` edges one association
 *   from the node a ref field names to the node holding the field; counts come with them;
 * - `{average}`/`{sum}` fields read a sum kept in the counts table under the type the compiled
 *   NodeTypeDef's `counters` name (written with the `adjustCount` op);
 * - the team's own keys are in the `declared_keys` table, written with the `setDeclaredKey` op
 *   (object type, key, id) and read with `Store.findDeclaredIds`.
 * `loadAppliedSchema` (applied.ts) gives the applied declaration, its storage keys and its Schema.
 */

/** A visibility or permission rule from the closed vocabulary; each costs at most one batched store call per page. */
export type RuleDecl =
  /** Any valid token. */
  | 'token'
  /** A token standing for a principal (a user token). */
  | 'principal'
  /** An app token of the schema's own app (the one `schema apply` created). */
  | 'app'
  /** The viewer owns the node (for principal nodes: is the node). */
  | 'owner'
  /** Nobody. */
  | 'never'
  /** Whoever may read the node (write rules only). */
  | 'reader'
  /** The viewer is in the edge list (`type.edge`) of the node's owner, of the node itself, or of the node a ref field names. */
  | { related: { edge: string; of?: 'owner' | 'self' | string } }
  /** The viewer may read the node the ref field names. */
  | { follows: string }
  /** The viewer owns the node the ref field names. */
  | { owner_of: string }
  /** The rule chosen by the value of an enum field. */
  | { by_field: string; cases: Record<string, RuleDecl>; default?: RuleDecl }
  /** Any one of the rules passes. */
  | { any: RuleDecl[] };

/** Where a field's value comes from when it is not a stored key of the object's data. */
export type SourceDecl =
  | 'id'
  | 'created_time'
  | 'updated_time'
  /** The object's owner as a nested node. */
  | 'owner'
  /** The number of items of an edge of this type. */
  | { count: string }
  /** Mean or total of a numeric field over the items of an edge, kept beside the count. */
  | { average: { edge: string; field: string } }
  | { sum: { edge: string; field: string } };

/** Who may set a field: its owner on create and update, only on create, or never through the API (import only). */
export type FieldWriteDecl = 'owner' | 'create_only' | 'never';

export interface FieldDecl {
  /** `string`, `int`, `float`, `bool`, `datetime`, `date`, `enum`, `url`, `email`, `json`, `ref<T>`, `list<X>`. */
  type: string;
  description?: string;
  /** Key of the value in the object's data; pinned by the first apply, defaults to the field's name. */
  storage?: string;
  /** Former names: the field keeps their storage key and still answers to them. */
  aliases?: string[];
  source?: SourceDecl;
  /** Name of a function in the `code:` module's `computed`. */
  computed?: string;
  default?: unknown;
  required?: boolean;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  min?: number | string;
  max?: number | string;
  /** Allowed values of an `enum` (or `list<enum>`). */
  values?: string[];
  max_items?: number;
  /** A JSON Schema the value of a `json` field must match. */
  schema?: Record<string, unknown>;
  read?: RuleDecl;
  write?: FieldWriteDecl;
  scope?: string;
  /** First API version (`v2.4`) the field exists in. */
  since?: string;
  /** First API version the field no longer exists in. */
  until?: string;
}

export type OrderDecl = 'reverse_chronological' | 'chronological';

export interface SummaryDecl {
  /** `total_count`. */
  count?: boolean;
  /** Name of a flag saying whether the viewer is among the items (`has_liked`). */
  viewer?: string;
  /** Name of a flag saying whether the viewer may POST to the edge (`can_like`). */
  can_write?: string;
  /** Show the list's order. */
  order?: boolean;
}

/** A party a POST to an edge names: the node posted to or the viewer. */
export type PartyDecl = 'parent' | 'viewer';

export interface EdgeWriteDecl {
  /** POST creates a node of this type, linked to the parent. */
  create?: string;
  /** POST links the viewer to the node; DELETE unlinks. */
  link?: 'viewer';
  unlink?: 'viewer';
  /** Who may POST (or DELETE); `reader` when absent. */
  allow?: RuleDecl;
  /** Permission the viewer's token must carry. */
  scope?: string;
  /** Ref fields of the created node set from the parties of the POST. */
  set?: Record<string, PartyDecl>;
  /** A viewer may not link to their own node. */
  not_self?: boolean;
}

export interface EdgeDecl {
  /** Type of the items. */
  to: string;
  description?: string;
  /** Association type in the store; pinned by the first apply, defaults to `<type>.<edge>`. */
  storage?: string;
  aliases?: string[];
  /** Edge of the target type kept as the other direction, in the same transaction. */
  inverse?: string;
  /** `<type>.<ref field>`: the list holds every node of that type whose field names this one. */
  backed_by?: string;
  /** Sort time of an item: when it was linked (default) or a datetime field of the target. */
  time?: 'link' | { field: string };
  /** Orders the edge offers; the first is its default. */
  order?: OrderDecl[];
  summary?: SummaryDecl;
  read?: RuleDecl;
  scope?: string;
  write?: EdgeWriteDecl;
  since?: string;
  until?: string;
}

export type IdDecl = 'plain' | 'compound' | 'app_scoped';

export interface TypeWriteDecl {
  /** Who may `POST /{id}` to change the fields whose `write` is `owner`. */
  update?: RuleDecl;
  /** Who may `DELETE /{id}`, and which edges' items go with the node. */
  delete?: { allow: RuleDecl; cascade?: string[] };
}

export interface TypeDecl {
  label?: string;
  description?: string;
  /** The object type in the store; pinned by the first apply, defaults to the type's name. */
  storage?: string;
  aliases?: string[];
  id?: IdDecl;
  /** A unique field of the team's own keys, used by import. */
  key?: string;
  /** The ref field naming the node's owner (stored in the owner column). */
  owner?: string;
  read?: RuleDecl;
  scope?: string;
  default_fields?: string[];
  fields?: Record<string, FieldDecl>;
  edges?: Record<string, EdgeDecl>;
  write?: TypeWriteDecl;
  /** At least one of these fields must be given when a node is created. */
  one_of?: string[];
  /** Names of functions in the `code:` module's `validators`. */
  validate?: string[];
}

export interface Declaration {
  loom: 1;
  name: string;
  version: number;
  /** Module (path relative to the file) holding computed fields and validators. */
  code?: string;
  /** The type a user token stands for; `me` is the viewer's node of it. */
  principal?: string;
  /** Permissions apps may request, with their descriptions. */
  scopes?: Record<string, string>;
  /** Further files (relative paths) whose types join this one's. */
  include?: string[];
  types: Record<string, TypeDecl>;
}

/** A declaration as loaded: the merged model and where it came from. */
export interface LoadedDeclaration {
  declaration: Declaration;
  /** Absolute path of the main file. */
  file: string;
  /** The merged declaration (includes folded in) as JSON text: what `schema apply` records and hashes. */
  text: string;
  /** The file and line of a dotted key (`types.review.fields.rating`), for problems found after loading. */
  locate(key: string): { file: string; line: number };
}

/**
 * The storage keys pinned by the first apply of each name, so that a later rename changes only
 * the name. Types map to object types, `type.field` to data keys, `type.edge` to association types.
 */
export interface StorageKeys {
  types: Record<string, string>;
  fields: Record<string, string>;
  edges: Record<string, string>;
}

/** What the code module exports (the `default` export of the `code:` file). */
export interface CodeModule {
  computed?: Record<string, (object: { id: number; owner: number | null; data: Record<string, unknown> }, context: { publicUrl: string; now: number }) => unknown>;
  /** Return a message to refuse the write, or null. */
  validators?: Record<string, (data: Record<string, unknown>) => string | null | undefined>;
}
