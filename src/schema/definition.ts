/**
 * Node types are data. A type lists its fields (scalar or structured values of one node) and its
 * edges (collections of other nodes reached through an association). The engine reads these
 * declarations; the Graph API's are compiled from src/graph/graph-v2.4.loom.yaml, so adding a type
 * is adding a section of a declaration (and naming its code), never a change in the engine.
 */
import type { AppPost, AudienceOf, EdgeItems, PostCheck, ResolvePost, SpecialEdge, StoryData } from './behaviours.js';
import type { ItemFlag, ItemValue } from './item-extras.js';
import type { StoredNode } from './stored-node.js';
import type { ApiVersion, RuleName, VersionBounds } from './versions.js';

/** What the schema's computed fields may know about the request. */
export interface FieldContext {
  /** The id a user has under the viewer's app (users are never shown by internal id). */
  userIdFor(internalId: number): string;
  /** Public base URL of this Loom (no trailing slash), for links to its own resources. */
  publicUrl: string;
  /** Host of profile links (`https://www.facebook.com` unless configured). */
  profileHost: string;
  /** The person's `token_for_business`: the same under every app of the viewer's app's business. */
  tokenForBusiness(internalId: number): string;
  /** Unix seconds of the request. */
  now: number;
  /** The internal id of the person asking; null for app tokens. */
  viewerId: number | null;
  /** The API version the answer is in, for fields whose shape a rule of versions.ts decides. */
  version: ApiVersion;
}

export type FieldSource =
  /** `object.data[key ?? name]`; absent or null values read as `default`, or leave the field out. */
  | { kind: 'data'; key?: string; default?: unknown }
  /** The node id as shown to the viewer (app-scoped for users, compound for posts). */
  | { kind: 'id' }
  /** The object's created or updated time, as `YYYY-MM-DDTHH:MM:SS+0000`. */
  | { kind: 'createdTime' }
  | { kind: 'updatedTime' }
  /** The object's owner, rendered as a nested node (`from`). */
  | { kind: 'owner' }
  /**
   * `data[key ?? name]` holds the internal id of another object (or, with `many`, an array of
   * ids): rendered as a nested node, or with `many` as `{"data":[nodes]}`. `fields`: what the
   * nested node shows when the request names nothing inside it (a place's name and location);
   * without it, the node's reference fields. Where the rule `idWhile` holds, the field is the
   * node's id, a string, instead (an album's `cover_photo` before v2.4).
   * A write may only name nodes of `target` (when given) that the writer can see.
   */
  | { kind: 'ref'; key?: string; many?: boolean; fields?: string; target?: string; idWhile?: RuleName }
  /**
   * The number of associations of `assoc` from this object (`like_count`); with `wrap`, the
   * object `{"<wrap>": n}`, left out at zero (a post's `shares`).
   */
  | { kind: 'count'; assoc: string; wrap?: string }
  /** Whether the viewer is among the object's `assoc` associations (`user_likes`); false for app tokens. */
  | { kind: 'viewerLinked'; assoc: string }
  /** A fresh page token, for a viewer who administers the page and granted the permission that gives page tokens (Permissions.pageTokens); absent for anyone else. */
  | { kind: 'pageToken' }
  /** A sum kept in the counts table under `sum`; divided by the count of `per` when given (an average). */
  | { kind: 'counter'; sum: string; per?: string }
  /** Derived from the stored object; undefined leaves the field out. */
  | { kind: 'computed'; compute: (object: StoredNode, context: FieldContext) => unknown };

export interface FieldDef {
  name: string;
  /** Type in the vocabulary of `metadata=1`: `numeric string`, `string`, `agerange`, `list<workexperience>`… */
  type: string;
  /** Written for Loom; shown by `metadata=1`. */
  description: string;
  /** Permission the node's owner must have granted the app; without it the field is left out. */
  scope?: string;
  /** Where the value comes from; `{kind:'data'}` when absent. */
  source?: FieldSource;
  /** `POST /<id>` by the node's owner may set this (data) field, up to this many characters. */
  writable?: { maxLength: number };
  /** The field exists only in the API versions where this rule of versions.ts holds (or within these bounds); in every version when absent. */
  versions?: RuleName | VersionBounds;
  /** Narrows who may see the field beyond who may see its node; it is left out for others. */
  read?: AccessRule;
}

/**
 * A rule of who may read or write a node, from a closed vocabulary whose every rule is answered
 * for a whole page of nodes with at most one batched store call.
 */
export type AccessRule =
  /** Any valid token. */
  | { kind: 'token' }
  /** A token standing for a person (the schema's principal). */
  | { kind: 'principal' }
  /** An app token. */
  | { kind: 'app' }
  /** The viewer owns the node (a principal node is its own owner). */
  | { kind: 'owner' }
  | { kind: 'never' }
  /** The viewer is among the items of `assoc` listed from the node's owner, the node itself, or the node a data key names. */
  | { kind: 'related'; assoc: string; of: 'owner' | 'self' | { key: string } }
  /** The viewer may read the node a data key names. */
  | { kind: 'follows'; key: string }
  /** The viewer owns the node a data key names. */
  | { kind: 'ownerOf'; key: string }
  /** The viewer is a node acting as itself (a page, through its token) that wrote, as itself, the node a data key names. */
  | { kind: 'nodeWroteOf'; key: string }
  /** The rule chosen by the value under a data key. */
  | { kind: 'byField'; key: string; cases: Record<string, AccessRule>; otherwise: AccessRule }
  | { kind: 'any'; rules: AccessRule[] };

/** Shape of an edge's `summary` object. */
export type SummaryKind =
  /** `{total_count}` */
  | 'count'
  /** `{total_count, can_like, has_liked}` */
  | 'likes'
  /** `{order, total_count, can_comment}` */
  | 'comments'
  /** `{total_count}` plus, under the names given, whether the viewer is an item and whether they may POST, and the order. */
  | { viewer?: string; canWrite?: string; order?: boolean };

export interface EdgeDef {
  name: string;
  description: string;
  /** Type name of the items. */
  target: string;
  /** Association type in the store from this node to its items; absent: the edge is always empty. */
  assoc?: string;
  /**
   * The list merges `assoc` of this node with `assoc` of every node this one lists under this
   * association type (a news feed: the person's posts and their friends').
   */
  through?: string;
  /** Permission the node's owner must have granted the app; without it the edge answers `{"data":[]}`. */
  scope?: string;
  /** Shape of `summary`; `count` when absent. */
  summary?: SummaryKind;
  /** Send the summary even when it was not asked for (friends does). */
  alwaysSummary?: boolean;
  /** Keep only items that are users who granted the viewer's app this permission (friends: `user_friends`). */
  itemsGranted?: string;
  /**
   * The edge takes `order(chronological|reverse_chronological)`; chronological (oldest first) is
   * the default. Edges without it list newest first.
   */
  ordered?: boolean;
  /** The order an `ordered` edge lists in when none is asked; chronological when absent. */
  defaultOrder?: 'chronological' | 'reverse_chronological';
  /** Association listing the whole conversation for `filter(stream)` (top-level items and replies alike). */
  streamAssoc?: string;
  /**
   * The `type` parameter (or modifier) picks which association list the edge reads, as a
   * person's events are those they attend, created, declined…; `default` applies without one.
   */
  itemFlag?: ItemFlag;
  /** When each item was linked (a person liked the page), a datetime it carries. */
  itemTime?: ItemValue;
  /** A value the link to each item holds in its data under `name` (a person's order of a group); left out where the link holds none. */
  itemData?: ItemValue;
  byType?: {
    default: string;
    assocs: Readonly<Record<string, string>>;
    /**
     * A field each item carries beside its own, saying which list it came from (a person's
     * answer to the event, `rsvp_status`), by type; sent by default and whenever `fields` names it.
     */
    itemField?: { name: string; values: Readonly<Record<string, string>>; versions?: RuleName };
  };
  /** Edges answered by something other than an association list (a profile picture, a person's permissions). */
  special?: SpecialEdge;
  /** The edge lists a catalogue the service itself defines, the same under every node (the standard app events). */
  catalogue?: EdgeCatalogue;
  /** Narrows who may read the edge beyond its scope: only the person themselves, or only the node's own app with an app token. */
  readers?: 'self' | 'app';
  /**
   * Items built from the association itself rather than the node it points at: a pending friend
   * request (`from`, `to`, `created_time`), a test user with a fresh token and its login URL, a
   * page the person administers with a fresh page token and the person's roles on it, a
   * relative (the person with the association's `relationship`), a taggable friend (the person
   * under a tag token instead of an id), or a place tag (a post's id, time and place).
   */
  items?: EdgeItems;
  /** A further path component naming this same edge (`/<app>/accounts/test-users`). */
  alias?: string;
  /** POST to the edge creates a node or links the viewer; DELETE on the edge undoes a link-only POST. */
  post?: EdgePost;
  /** The edge exists only in the API versions where this rule of versions.ts holds (or within these bounds); in every version when absent. */
  versions?: RuleName | VersionBounds;
  /**
   * The edge is listed in every version but answers only where this rule holds; past the rule's
   * `until` it answers (#12) deprecated, as the real service did for what v2.4 removed.
   */
  servedWhile?: RuleName;
  /** Narrows who may read the edge beyond who may see its node; others get `{"data":[]}`. */
  read?: AccessRule;
  /** In the API versions where this rule holds, paging links count items (`offset`) instead of showing cursors. */
  offsetPaging?: RuleName;
  /** Parameters those offset links carry besides the request's (a person's groups: `icon_size`). */
  offsetLink?: Readonly<Record<string, string>>;
  /** In the API versions where this rule holds, paging links name the page's times (`until`, `since`) instead of showing cursors. */
  timePaging?: RuleName;
}

/**
 * Fixed items an edge lists in one page, whoever asks: plain objects, not nodes, so they have no
 * id; `fields=` picks among their keys (and, nested, the keys of the objects they hold).
 */
export interface EdgeCatalogue {
  /** The items' type as errors name it, for a field no item has. */
  label: string;
  items: readonly Readonly<Record<string, unknown>>[];
}

export type Visibility =
  /** Anyone with a token sees it. */
  | 'public'
  /** Only its owner sees it (a person's friend lists). */
  | 'owner'
  /**
   * Decided by the object's own data through the package's code (the Graph's privacy settings):
   * anyone, its owner alone, or its owner and those the `circle` association from the owner lists.
   */
  | { audience: AudienceOf; circle: string }
  /**
   * Seen by whoever may see another node: the one named by the first of these data fields that
   * holds an id (a comment follows the post or photo its conversation hangs under). Hidden from
   * everyone once that node is gone.
   */
  | { follows: readonly string[] }
  /**
   * Seen by anyone while `data[word]` is one of `open` (an OPEN event or group), else only by the
   * people the `members` association lists from the node (its guests, its members).
   */
  | { word: string; open: readonly string[]; members: string }
  /** Decided by a rule of the vocabulary (declared schemas). */
  | { rule: AccessRule };

/**
 * How a node shows to an app that a person never used (never granted it `public_profile`, or
 * removed it), beyond what its visibility says. Such a person still appears wherever they acted
 * on something the viewer may read; only what is their own stays closed.
 */
export type NonUserRule =
  /**
   * The node is a person: to an app they never used, they show only these fields and edges (their
   * public profile), and every other edge of theirs answers `{"data":[]}`.
   */
  | { profile: readonly string[] }
  /**
   * What such a person wrote is hidden from the app, unless it was written to a person who uses
   * it (or to the viewer), whom the data key `to` lists: a post on an app user's wall.
   */
  | { authored: 'hidden'; unlessTo?: string };

/** How the node's id is shown. */
export type IdForm =
  /** The app-scoped user id. */
  | 'user'
  /** `<owner's app-scoped id>_<object id>`. */
  | 'post'
  /** The plain object id. */
  | 'plain';

export interface NodeTypeDef {
  /** Lower-case name: the store's object type and `metadata.type` (`user`, `post`…). */
  name: string;
  /** Capitalised name used in error messages (`User`, `Post`…). */
  label: string;
  idForm: IdForm;
  visibility: Visibility;
  /** How the node shows to an app that the person it is, or whose it is, never used; as to anyone when absent. */
  nonUsers?: NonUserRule;
  /**
   * Permission the owner must have granted the app for every field but `id` and every edge that
   * names none of its own (all of a photo needs its owner's `user_photos`).
   */
  scope?: string;
  /** Deleting the node removes its uploaded image; nodes that only show the image (a photo's story) never do. */
  ownsMedia?: boolean;
  /**
   * Associations from the node to nodes that go with it: deleted in the same transaction, each
   * with its comments (a photo's story posts).
   */
  deletesWith?: string[];
  /**
   * Fields sent when the request names none; `id` is always appended last. They are also what a
   * node shows where a reference field names it (`from`, a photo's `album`) and the request
   * names nothing inside it, so they are fields, never edges.
   */
  defaultFields: string[];
  /**
   * The richer set sent instead where the `minimal-default-fields` rule does not hold (before
   * v2.4), in the order the real service sent them (fields or edges, `id` first), to a node read
   * by its own path. `listed`: what an item of an edge showed instead, when less (people listed
   * in an edge showed their name; pages their category and name). `reference`: what a reference
   * to the node showed in those versions, when more than the minimal set (a page named by `from`
   * showed its category); fields only, like the minimal set. Names a version lacks are skipped.
   * `versions`: names that were defaults only where a rule holds, though answered in every version.
   * `shownTo`: names that were defaults only for a node whose viewer passes this rule (a comment's
   * can_hide, for the page whose post it is on); asked for by name, they answer as any field.
   */
  fullDefaultFields?: { names: string[]; listed?: string[]; reference?: string[]; versions?: Record<string, RuleName>; shownTo?: Record<string, AccessRule> };
  fields: FieldDef[];
  edges: EdgeDef[];
  /**
   * Who may change (`POST /<id>`) and delete the node, when a rule decides it rather than the
   * built-in "what you wrote" (declared schemas).
   */
  writeRules?: { update?: AccessRule; delete?: AccessRule };
  /** Sums this type's nodes add to (a review's rating to its book's total): kept in the same transaction as each write. */
  counters?: Counter[];
  /**
   * Turns written values (parameters, as text) into stored ones and checks them, throwing a
   * GraphError (#100) naming the field and the limit. `current` is the stored data on update.
   */
  checkData?: (changes: Record<string, unknown>, current: Record<string, unknown> | undefined) => Record<string, unknown>;
  /** How `GET /search` finds nodes of this type; not searchable when absent. */
  search?: SearchDef;
}

/** A numeric data key of a node, summed on the node another key names (the owner when `parentKey` is absent). */
export interface Counter {
  /** The counts-table type holding the sum. */
  sum: string;
  parentKey?: string;
  valueKey: string;
}

/**
 * What the store's full-text index holds of a node type. The store indexes every object of the
 * type, in the same transaction as each write, from these data keys.
 */
interface SearchDef {
  /** The words of `GET /search?type=…` that list this type (a page is found as `page`, and as `place` when located). */
  as: readonly SearchAs[];
  /** Data keys whose text is searched; a dotted key reaches into an object (`location.city`). */
  fields: readonly string[];
  /** Data keys of the node's position, in degrees, for `center` and `distance`. */
  point?: { latitude: string; longitude: string };
}

interface SearchAs {
  type: string;
  /** Only nodes with a position (`point`) are found under this word. */
  located?: boolean;
  /**
   * The fields each item carries when the request names none, where the
   * `minimal-default-fields` rule does not hold (before v2.4); the type's own defaults otherwise.
   */
  fullDefaultFields?: readonly string[];
}

/**
 * Who an association written by a POST joins: the node posted to, the viewer, the node created,
 * the node named after the edge (`<u2>` in `/<u1>/friends/<u2>`), or the thread: the post or
 * photo a conversation hangs under (the parent itself, or for a reply the node its comment
 * follows).
 */
export type Party = 'parent' | 'viewer' | 'created' | 'item' | 'thread';

export interface ParamDef {
  name: string;
  /** Longest accepted value, in characters. */
  maxLength: number;
  /**
   * The value is more than text (`privacy={"value":"SELF"}`): this reads it into what is stored,
   * or throws the GraphError that says what is wrong; undefined stores nothing.
   */
  decode?: (text: string, name: string) => unknown;
  /** The value is a comma-separated list of people's ids as the app knows them, read as their internal ids. */
  people?: boolean;
}

/** What a POST to an edge does; edges without it refuse POST. */
export interface EdgePost {
  /** Permission the viewer's token must carry, without which the POST is refused with (#200); every POST by a person names one. */
  scope?: string;
  /**
   * Made by the node's own app with an app token rather than by a person, and answered whole by
   * the package's code (the app creates a test user, who gets sign-in credentials and, when
   * installed, grants and a token).
   */
  byApp?: AppPost;
  /** Type of the node the POST creates; absent when the POST only links the viewer (likes). */
  creates?: string;
  /** Who may POST here, by the package's code (only on one's own node, on a friend's wall, in a group one is a member of); with neither this nor `allow`, anyone who can see the node. */
  check?: PostCheck;
  /** Who may POST here, by a rule of the vocabulary (declared schemas); checked on the node posted to. */
  allow?: AccessRule;
  /** A link-only POST may not link the viewer to their own node. */
  notSelf?: boolean;
  /** The POST carries an image: a file part of a multipart body, or a `url` to fetch it from. */
  image?: boolean;
  /** The POST carries a video: a file part of a multipart body, or a `file_url` to fetch it from. */
  video?: boolean;
  /**
   * The created node is also announced by a node of `type` (a photo upload's story, a post on the
   * uploader's feed), written in the same batch: the writer lists it under each of `lists`, the
   * created node under `assoc` (which its type names among those deleted with it), and its data
   * key `names` holds the created node's id. Its data comes from the POST's parameters, the
   * created node's data and the app the POST is made through, unless `data` answers undefined
   * (the parameters ask for none); the answer then names it beside `id`, under `answer`.
   */
  story?: { type: string; lists: string[]; assoc: string; names: string; answer: string; data: StoryData };
  /**
   * A POST on a node of the created type that itself answers another of that type (a reply,
   * whose `parent` is a comment) goes to that other node: a reply to a reply joins the top-level
   * comment, so conversations are two levels deep, as on the real service.
   */
  flattens?: boolean;
  /**
   * The package's code reads what the parameters say beyond the created node's data, and names
   * further associations to it (a post's `place` and `tags`: the tagged people list it under
   * `tagged` and, with the author, under `tagged_places`).
   */
  resolve?: ResolvePost;
  /** Type of the node the path names after the edge (`/<u1>/friends/<u2>`); such a POST is made by the parent itself. */
  item?: string;
  /**
   * Association type holding the POST as a request until the item confirms it: the POST records
   * a request from the item to the parent; once the item has asked too, the same POST writes
   * the links instead and clears the request.
   */
  request?: string;
  params?: ParamDef[];
  /**
   * The parent may list at most `max` nodes under `assoc`; a POST beyond that is refused with
   * `message`. Checked inside the POST's own transaction, so simultaneous POSTs cannot overshoot.
   */
  cap?: { assoc: string; max: number; message: string };
  /** At least one of these parameters must be given (a post needs a message or a link). */
  oneOf?: string[];
  /**
   * Data of the created node, from the parameters read and the data of the node posted to (the
   * parameters themselves when absent).
   */
  derive?: (
    params: Record<string, unknown>,
    /** `app`: the app the POST is made through. */
    parties: { parent: number; viewer: number; thread: number; app: number },
    parentData: Record<string, unknown>,
  ) => Record<string, unknown>;
  /** Associations written in the same transaction, in both directions where the graph needs both. */
  links: Array<{ assoc: string; from: Party; to: Party }>;
  /** Associations removed in the same transaction: an answer to an invitation takes the person off the other answers' lists. */
  unlinks?: Array<{ assoc: string; from: Party; to: Party }>;
}
