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
import type { AppWrites, WritePolicy } from '../schema/behaviours.js';
import type { EdgeDef, EdgePost, FieldContext, NodeTypeDef, NonUserRule, Visibility } from '../schema/definition.js';
import type { StoredObject } from '../store/graph-store.js';

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
  /**
   * The viewer is in the edge list (`type.edge`) of the node's owner (`of: 'owner'`, the default),
   * of the node itself (`'self'`), or of the node a ref field names (that field's name).
   */
  | { related: { edge: string; of?: string } }
  /** The viewer may read the node the ref field names. */
  | { follows: string }
  /** The viewer owns the node the ref field names. */
  | { owner_of: string }
  /** The viewer, acting as a node (a page through its token), wrote as itself the node the ref field names. */
  | { written_as_viewer: string }
  /** The rule chosen by the value of an enum field. */
  | { by_field: string; cases: Record<string, RuleDecl>; default?: RuleDecl }
  /** Any one of the rules passes. */
  | { any: RuleDecl[] };

/** Where a field's value comes from when it is not a stored key of the object's data. */
type SourceDecl =
  | 'id'
  | 'created_time'
  | 'updated_time'
  /** The object's owner as a nested node. */
  | 'owner'
  /** A fresh page token, for a viewer who administers the page and granted the permission marked `page_tokens`. */
  | 'page_token'
  /**
   * The number of items of an edge of this type (or, in `data: graph`, of associations of a
   * storage key); with `wrap`, `{"<wrap>": n}`, left out at zero.
   */
  | { count: string; wrap?: string }
  /** The stored value is a node's internal id (with `many`, a list of them), shown as a nested node. */
  | { ref: { many?: boolean; fields?: string; target?: string; id_while?: string } }
  /** Whether the viewer is among the associations of this storage key from the node. */
  | { viewer_linked: string }
  /** Mean or total of a numeric field over the items of an edge, kept beside the count. */
  | { average: { edge: string; field: string } }
  | { sum: { edge: string; field: string } };

/** Who may set a field: its owner on create and update, only on create, or never through the API (import only). */
type FieldWriteDecl = 'owner' | 'create_only' | 'never';

export interface FieldDecl {
  /** `string`, `int`, `float`, `bool`, `datetime`, `date`, `enum`, `url`, `email`, `json`, `ref<T>`, `list<X>`; may be left out beside `metadata_type`. */
  type?: string;
  /** The type `metadata=1` shows, word for word (`agerange`); the value is then served as stored. */
  metadata_type?: string;
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
  /** A rule of the version table (versions.ts): the field exists where it holds. */
  versions?: string;
}

type OrderDecl = 'reverse_chronological' | 'chronological';

interface SummaryDecl {
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
type PartyDecl = 'parent' | 'viewer';

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

/** A name of the code module, of the kind the key it stands under expects. */
interface BehaviorDecl {
  behavior: string;
}

export interface EdgeDecl {
  /** Type of the items. */
  to: string;
  description?: string;
  /**
   * Association type in the store; pinned by the first apply, defaults to `<type>.<edge>`. In
   * `data: graph` an edge without it is always empty.
   */
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
  summary?: SummaryDecl | 'count' | 'likes' | 'comments';
  read?: RuleDecl;
  scope?: string;
  /** Creates or links as declared, or as a POST behaviour of the code module (`posts`) does. */
  write?: EdgeWriteDecl | BehaviorDecl;
  since?: string;
  until?: string;
  /** A rule of the version table: the edge exists where it holds. */
  versions?: string;
  /** Listed in every version, answered only where this rule holds. */
  served_while?: string;
  /** Where this rule holds, paging links count items (`offset`). */
  offset_paging?: string;
  /** What the service added to those offset links besides the request's own parameters. */
  offset_link?: Record<string, string>;
  /** Where this rule holds, paging links name times (`since`, `until`). */
  time_paging?: string;
  /** Association listing the whole conversation for `filter(stream)`. */
  stream_storage?: string;
  /** The list merges `storage` of the node with that of every node it lists under this association. */
  through?: string;
  readers?: 'self' | 'app';
  /** Keep only items that are people who granted the viewer's app this permission. */
  items_granted?: string;
  always_summary?: boolean;
  /** A further path component naming this same edge. */
  alias?: string;
  /** The `type` parameter picks the association list read. */
  /** A boolean each item carries: whether the item lists the node under `storage` (`of: item`), or the node the item. */
  item_flag?: { name: string; storage: string; of: 'item' | 'node'; versions?: string };
  /** When each item was linked, which each item carries under this name (when a person liked the page). */
  item_time?: { name: string; versions?: string };
  /** A value the link to each item holds in its data under this name, which each item carries (a person's order of a group). */
  item_data?: { name: string; versions?: string };
  by_type?: { default: string; storage: Record<string, string>; item_field?: { name: string; values: Record<string, string>; versions?: string } };
  /** An edge behaviour of the code module (`behaviors`) answers the edge. */
  behavior?: string;
}

type IdDecl = 'plain' | 'compound' | 'app_scoped';

interface TypeWriteDecl {
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
  /** A rule, or a visibility of the code module (`visibilities`). */
  read?: RuleDecl | BehaviorDecl;
  scope?: string;
  default_fields?: string[];
  /**
   * Before v2.4: what a read without `fields` sends, in order; `listed`: what an item of an edge
   * sends, when other than `names`; `reference`: what a ref field naming the node shows, when more than `default_fields`;
   * `versions`: a rule of the version table for each of those names that was a default only where the rule holds.
   */
  full_default_fields?: { names: string[]; listed?: string[]; reference?: string[]; versions?: Record<string, string>; shown_to?: Record<string, RuleDecl> };
  /** Deleting the node removes its uploaded file. */
  owns_media?: boolean;
  /** Storage keys of associations whose nodes go with the node. */
  deletes_with?: string[];
  search?: {
    as: Array<{ type: string; located?: boolean; full_default_fields?: string[] }>;
    fields: string[];
    point?: { latitude: string; longitude: string };
  };
  /** A function of the code module's `checks`, in place of the checker made from the fields. */
  check?: string;
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
  /**
   * `graph`: Loom's built-in types, whose data the code module's POST behaviours write. Storage
   * keys are the names given, edges without `storage` are empty, computed fields see the stored
   * object and the whole FieldContext, and written values are kept as written unless a type
   * names a `check`.
   */
  data?: 'declared' | 'graph';
  /** Module (path relative to the file) holding computed fields and validators. */
  code?: string;
  /** The type a user token stands for; `me` is the viewer's node of it. */
  principal?: string;
  /** Permissions apps may ask a person for, in the order listed (see PermissionDecl). */
  permissions?: Record<string, PermissionDecl>;
  /** The groups permissions are listed in, in order, each with what its permissions are about. */
  permission_groups?: Record<string, string>;
  /** The earlier name of `permissions`, in its short form (name: description); still read. */
  scopes?: Record<string, string>;
  /** Further files (relative paths) whose types join this one's. */
  include?: string[];
  types: Record<string, TypeDecl>;
}

/**
 * A permission an app may ask a person for: what granting it means (the short form is that
 * sentence alone), and optionally its group, the versions that offer it, and how it stands in for
 * another. Without one marked `always_granted`, `public_profile` is always granted.
 */
export type PermissionDecl =
  | string
  | {
      description: string;
      /** A name of `permission_groups`; without one, the permission is listed under "Other". */
      group?: string;
      /** Granted with every authorisation and revoked only with the whole app; at most one permission is. */
      always_granted?: boolean;
      /** First API version that offers it. */
      since?: string;
      /** First API version that no longer offers it: it is then refused like a name never declared. */
      until?: string;
      /** A rule of the version table: offered where it holds. */
      versions?: string;
      /** In the versions that offer it, it also reads what this permission reads (read_stream what user_posts reads). */
      reads?: string;
      /** What a page token carries in its place when it acts as its page (publish_pages for publish_actions). */
      as_page?: string;
      /** Granting it lets the app have page tokens of the pages the person administers (a `page_token` field); at most one permission does. */
      page_tokens?: boolean;
    };

/** A declaration as loaded: the merged model and where it came from. */
export interface LoadedDeclaration {
  declaration: Declaration;
  /** Absolute path of the main file. */
  file: string;
  /** Every file read, by absolute path, with the text that was parsed: the main file, then its includes. */
  sources: Array<{ file: string; text: string }>;
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

/**
 * What the code module exports (the `default` export of the `code:` file). Computed fields of a
 * declared schema see the node with its data keyed by field name; those of a `data: graph`
 * declaration see the stored object as it is. Both get the request's FieldContext.
 */
export interface CodeModule {
  computed?: Record<string, (object: StoredObject, context: FieldContext) => unknown>;
  /** Return a message to refuse the write, or null. */
  validators?: Record<string, (data: Record<string, unknown>) => string | null | undefined>;
  /** Who sees a node, where the rule vocabulary cannot say it (`read: {behavior: name}`). */
  visibilities?: Record<string, CodeVisibility>;
  /** Edges answered by something other than an association list (`behavior: name`). */
  behaviors?: Record<string, EdgeBehavior>;
  /** What a POST to an edge does (`write: {behavior: name}`). */
  posts?: Record<string, EdgePost>;
  /** A type's `checkData` (`check: name`). */
  checks?: Record<string, NonNullable<NodeTypeDef['checkData']>>;
  /** What an app token may change or delete beyond its own settings (the Graph's test users). */
  appWrites?: AppWrites;
  /** Who may change or delete nodes whose types declare no write rule, and what goes with a deleted node (the Graph's walls and conversations). */
  writePolicy?: WritePolicy;
}

/** A visibility of a code module: who sees the node, with how it shows to apps a person never used when that matters. */
export type CodeVisibility = Visibility | { sees: Visibility; nonUsers: NonUserRule };

/** The kinds of edge behaviour: the whole answer made elsewhere, items made from the association, or a fixed catalogue. */
export type EdgeBehavior =
  | { special: NonNullable<EdgeDef['special']> }
  | { items: NonNullable<EdgeDef['items']> }
  | { catalogue: NonNullable<EdgeDef['catalogue']> };
