/**
 * Graph API versions and what changed between them. Every behaviour that differs by version is a
 * named rule here, with the version it started in (`since`) or the first version without it
 * (`until`) and where that is documented. The schema, the engine and the HTTP layer ask this
 * table (`rules.has(name, version)`); none of them compares version numbers itself.
 *
 * Versions after v2.4 answer as v2.4 does unless a rule below says otherwise: Loom emulates the
 * v2.0–v2.4 dialects, and later versions are accepted so clients that pin them keep working.
 */

/**
 * Every version the real service published, with its release date, as its changelog's table of
 * versions lists them (developers.facebook.com/docs/graph-api/changelog/versions).
 */
export const PUBLISHED_VERSIONS = [
  { name: 'v2.0', released: '2014-04-30' },
  { name: 'v2.1', released: '2014-08-07' },
  { name: 'v2.2', released: '2014-10-30' },
  { name: 'v2.3', released: '2015-03-25' },
  { name: 'v2.4', released: '2015-07-08' },
  { name: 'v2.5', released: '2015-10-07' },
  { name: 'v2.6', released: '2016-04-12' },
  { name: 'v2.7', released: '2016-07-13' },
  { name: 'v2.8', released: '2016-10-05' },
  { name: 'v2.9', released: '2017-04-18' },
  { name: 'v2.10', released: '2017-07-18' },
  { name: 'v2.11', released: '2017-11-07' },
  { name: 'v2.12', released: '2018-01-30' },
  { name: 'v3.0', released: '2018-05-01' },
  { name: 'v3.1', released: '2018-07-26' },
  { name: 'v3.2', released: '2018-10-23' },
  { name: 'v3.3', released: '2019-04-30' },
  { name: 'v4.0', released: '2019-07-29' },
  { name: 'v5.0', released: '2019-10-29' },
  { name: 'v6.0', released: '2020-02-03' },
  { name: 'v7.0', released: '2020-05-05' },
  { name: 'v8.0', released: '2020-08-04' },
  { name: 'v9.0', released: '2020-11-10' },
  { name: 'v10.0', released: '2021-02-23' },
  { name: 'v11.0', released: '2021-06-08' },
  { name: 'v12.0', released: '2021-09-14' },
  { name: 'v13.0', released: '2022-02-08' },
  { name: 'v14.0', released: '2022-05-25' },
  { name: 'v15.0', released: '2022-09-15' },
  { name: 'v16.0', released: '2023-02-02' },
  { name: 'v17.0', released: '2023-05-23' },
  { name: 'v18.0', released: '2023-09-12' },
  { name: 'v19.0', released: '2024-01-23' },
  { name: 'v20.0', released: '2024-05-21' },
  { name: 'v21.0', released: '2024-10-02' },
  { name: 'v22.0', released: '2025-01-21' },
  { name: 'v23.0', released: '2025-05-29' },
  { name: 'v24.0', released: '2025-10-08' },
  { name: 'v25.0', released: '2026-02-18' },
  { name: 'v26.0', released: '2026-07-29' },
  // The changelog lists this one by date (after v26.0); its name follows the sequence.
  { name: 'v27.0', released: '2026-11-04' },
] as const;

export type ApiVersion = (typeof PUBLISHED_VERSIONS)[number]['name'];

/** The version unversioned calls get when neither the server nor the token's app names one. */
export const DEFAULT_API_VERSION: ApiVersion = 'v2.4';

const ORDER = new Map<string, number>(PUBLISHED_VERSIONS.map((version, index) => [version.name, index]));

/** The published version named by `text` (`v2.3`), or undefined for one that never existed (`v9.9`, `v2.80`). */
export function publishedVersion(text: string): ApiVersion | undefined {
  return ORDER.has(text) ? (text as ApiVersion) : undefined;
}

export interface VersionRule {
  /** First version with the behaviour; absent: every version from v2.0. */
  since?: ApiVersion;
  /** First version without it; absent: every version after `since`. */
  until?: ApiVersion;
  /** What the behaviour is, in a sentence (docs/versions.md repeats it). */
  description: string;
  /** Where the real service's behaviour is recorded. */
  source: string;
}

/**
 * The behaviours that differ by version. Fields, edges and permissions name these in their
 * `versions` key, or carry their own since/until, compared by withinVersions below.
 */
export const VERSION_RULES = {
  'boolean-result-object': {
    since: 'v2.1',
    description: 'Likes, deletes, updates and friend requests answer {"success":true}; before, a bare true.',
    source:
      'php-graph-sdk FacebookResponse::decodeBody ("Backwards compatibility for Graph < 2.1. Mimics 2.1 responses"); npm fbgraph test suite (v2.0-era) expects true',
  },
  'token-endpoint-json': {
    since: 'v2.3',
    description: '/oauth/access_token answers JSON {access_token, token_type, expires_in}; before, form-encoded access_token=…&expires=…',
    source: 'Graph API changelog v2.3 ("[Oauth Access Token] Format"); restfb#223 (a real v2.3 body); koala OAuth#parse_access_token reads both',
  },
  'minimal-default-fields': {
    since: 'v2.4',
    description: 'A node read without `fields` answers a minimal set (a person: name and id); before, a rich set.',
    source: 'Graph API changelog v2.4 and blog post "Graph API v2.4" (2015-07-08): "Fewer default fields for faster performance"',
  },
  'likes-summary-can-like': {
    since: 'v2.4',
    description: 'The likes summary adds can_like and has_liked to total_count.',
    source: 'restfb fixtures v2_3/post-likes-summary.json (total_count only) and v2_5/post-likes-summary.json; restfb#335 ("new feature with API 2.4")',
  },
  'offset-paging': {
    until: 'v2.3',
    description: "A person's friends, groups, pages and friend lists and a group's members page by offset (limit, offset and __after_id in paging.next); from v2.3, by cursors.",
    source:
      'koala VCR friend_list_next_page.yml (a real v2.2 recording: offset and __after_id links); fb_graph2 user/groups.json (v2.0) and group/members.json (v2.1), offset links without cursors',
  },
  'time-paging': {
    until: 'v2.3',
    description:
      'Feeds, posts, photos, videos and events page by time: `next` by `until` (the oldest item), `previous` by `since` (the newest), both with the position as `__paging_token`, no cursors; from v2.3, by cursors.',
    source:
      'fb_graph2 fixtures user/feed.json, user/posts.json, user/photos.json, user/videos.json and user/events.json (v2.0: since/until links, no cursors; the events links with __paging_token, which Loom sends on every time-paged link so that a page never skips an item of the same second)',
  },
  'post-attachments': {
    since: 'v2.3',
    description: "A post's attachments edge exists.",
    source: 'Graph API changelog v2.3 ("attachments" edge on Post); restfb v2_3 post fixtures',
  },
  'user-statuses-links': {
    until: 'v2.4',
    description: "A person's statuses and links edges exist (v2.4 folds them into feed and posts).",
    source: 'Graph API changelog v2.4 "Accessing Timeline Posts"; fb_graph2#122 ("links edge is no longer available", "statuses edge is no longer available")',
  },
  'page-likes-count': {
    until: 'v2.6',
    description: "A page's `likes` field is its fan count; from v2.6 that count is `fan_count` and `likes` is the edge of pages the page likes.",
    source: 'Graph API changelog v2.6 ("likes" on Page renamed "fan_count"); restfb v2_0/page.json and v2_6/page-with-fancount.json',
  },
  'page-fan-count': {
    since: 'v2.6',
    description: "A page's fan count is the `fan_count` field, and `likes` lists the pages the page likes.",
    source: 'Graph API changelog v2.6 ("likes" on Page renamed "fan_count"); restfb v2_6/page-with-fancount.json',
  },
  'cover-photo-id': {
    until: 'v2.4',
    description: "An album's cover_photo is the photo's id, a string; from v2.4 the photo itself ({created_time, name, id}).",
    source: 'restfb fixtures v2_3/album-coverphoto.json ("cover_photo": "<id>") and v2_4/album-coverphoto.json ({created_time, name, id})',
  },
  'cover-photo-node-id': {
    since: 'v2.3',
    description: "A page's cover names its photo as `id` besides `cover_id`; before, `cover_id` alone.",
    source:
      'restfb fixtures v1_0, v2_0 and v2_1 page.json and facebook4j user/users.json (cover_id, offset_x, offset_y, source); v2_3 issue252-event-1.json, v2_4 issue312-event.json and cover_photo.json (with id). No v2.2 capture at hand: Loom reads it as the older shape',
  },
  'news-feed-and-mailbox': {
    until: 'v2.4',
    description: "A person's home (news feed), inbox, outbox and notifications edges answer; from v2.4 metadata=1 still lists them but they answer (#12) deprecated.",
    source:
      'Graph API changelog v2.4 (read_stream, read_mailbox and manage_notifications removed with the edges they read); the (#12) "… is deprecated for versions v2.4 and higher" wording the service used for what v2.4 removed',
  },
  'event-location-venue': {
    until: 'v2.3',
    description: "An event names where it takes place as `location` (the place's name, a string) and `venue` (its address and coordinates); from v2.3, as `place`.",
    source: 'restfb fixtures v2_0/event.json (location, venue) and v2_3/issue252-event-1.json (place); fb_graph2 user/events.json (a v2.0 list: location)',
  },
  'event-place': {
    since: 'v2.3',
    description: "An event names where it takes place as `place` (a page's name, location and id, or a name alone).",
    source: 'restfb fixtures v2_3/issue252-event-1.json and v2_4/issue312-event.json',
  },
  'privacy-lists': {
    until: 'v2.4',
    description: "A post's `privacy` always carries friends, networks, allow and deny after its description and value, empty strings when unset; Loom's v2.4 dialect sends what was set.",
    source: 'fb_graph2 fixtures user/posts.json and post/liked_and_commented.json (v2.0); restfb v2_1/post-story.json',
  },
  'comments-summary-can-comment': {
    since: 'v2.4',
    description: 'The comments summary adds can_comment to order and total_count.',
    source:
      'facebook4j post/comments_with_summary.json (a v2.1 answer: order and total_count); later answers carry can_comment. Loom keeps its recorded v2.4 answers, which carry it.',
  },
  'debug-token-type': {
    since: 'v2.4',
    description: "debug_token names the token's type (USER, APP, PAGE), a person's token when it was issued, and an app token its app's name; before, app_id and is_valid alone for an app token, and no type or issued_at.",
    source:
      'fb_graph2 token_metadata/*.json (v2.2 answers, late 2014, none of them); node-facebook live tests and restfb debug-token-info fixtures (2016 on, with type). Loom keeps its recorded v2.4 answers, which carry them.',
  },
  'unknown-object-subcode': {
    since: 'v2.4',
    description: 'An object that does not exist or cannot be seen answers error_subcode 33 beside code 100; before, code 100 alone.',
    source:
      'restfb batch/batch-first-error.json (a v2.3 answer without error_subcode); koala#402 and SSF error-100-badRequestUrl.json (2014–2015, none); sapegin/social-likes#206 (subcode 33, 2017). Loom keeps its recorded v2.4 answers, which carry it.',
  },
  'event-privacy-default': {
    until: 'v2.3',
    description: "An event read by its own path without `fields` names its privacy; from v2.3 only when asked for.",
    source: 'restfb fixtures v2_0/event.json (privacy among the defaults) and v2_3/issue252-event-1.json, v2_3/issue252-event-2.json (two events read without fields, neither with privacy)',
  },
  'comment-hiding': {
    since: 'v2.2',
    description:
      'A comment read without `fields` by the page whose post it is on, through its token, names can_hide and is_hidden among its rich defaults; before, only when asked for.',
    source:
      "restfb fixture v2_2/comment_canHide.json (a comment on a page's post, read by the page, with both; v2_2/comment_noCanHide.json is the same comment edited by hand); fb_graph2 post/comments.json (v2.0) and facebook4j post/comments_with_summary.json (v2.1), without",
  },
  'video-status-fields': {
    since: 'v2.4',
    description: "A video's embeddable, privacy (with every list, as a post's in the earlier versions) and status fields exist.",
    source: 'restfb fixture v2_4/video-newfields.json and its test of the fields new in v2.4; restfb Video.embeddable (@RestFB.GraphApi.Since 2.4)',
  },
  'early-graph-fields': {
    until: 'v2.4',
    description:
      "Fields the v2.0–v2.3 answers carried that Loom's v2.4 dialect leaves out: a page's can_post, has_added_app, is_community_page, founded and parking; an event's is_date_only and ticket_uri, and each guest's rsvp_status in its lists; a group's venue; `administrator` on a group's members and a person's groups (whether the person administers the group), and bookmark_order on a person's groups (the group's place in their bookmarks); a video's name (its title) and icon; a photo's backdated_time_granularity; when the person liked each page of their likes (created_time).",
    source:
      'restfb fixtures v2_0/page.json, v2_0/event.json, v2_0/group.json, v2_1/photo-day.json, v2_3/issue252-event-1.json; fb_graph2 user/videos.json (v2.0), user/likes.json (v2.0), user/groups.json (v2.0) and event/attending.json (v2.1); facebook4j user/users.json. Loom keeps its recorded v2.4 answers as they are, so these stop at v2.4.',
  },
} as const satisfies Record<string, VersionRule>;

export type RuleName = keyof typeof VERSION_RULES;

/** The versions a declared field or edge exists in: [since, until), read by the same comparison as the rules. */
export interface VersionBounds {
  since?: ApiVersion;
  until?: ApiVersion;
}

/** What a write that creates nothing answers: `{"success":true}`, or in v2.0 a bare `true`. */
export type BooleanResult = true | { success: true };

/**
 * Whether `version` lies in [since, until): the one comparison of versions in Loom. Bounds may
 * name v1.0, the unversioned API before v2.0, which is older than every version Loom serves.
 */
function withinVersions(version: ApiVersion, since?: string, until?: string): boolean {
  const at = rank(version);
  return (since === undefined || at >= rank(since)) && (until === undefined || at < rank(until));
}

function rank(version: string): number {
  if (version === 'v1.0') return -1;
  const index = ORDER.get(version);
  if (index === undefined) throw new Error(`Not a published API version: ${version}`);
  return index;
}

/** The one question code asks about versions. */
export const rules = {
  has(name: RuleName, version: ApiVersion): boolean {
    const rule: VersionRule = VERSION_RULES[name];
    return withinVersions(version, rule.since, rule.until);
  },
  /** A declaration's `versions`: a rule of the table, or a declared schema's own bounds; none means every version. */
  allows(versions: RuleName | VersionBounds | undefined, version: ApiVersion): boolean {
    if (versions === undefined) return true;
    return typeof versions === 'string' ? rules.has(versions, version) : withinVersions(version, versions.since, versions.until);
  },
  /** The first version without the behaviour; undefined when no version ends it. */
  until(name: RuleName): ApiVersion | undefined {
    const rule: VersionRule = VERSION_RULES[name];
    return rule.until;
  },
  booleanResult(version: ApiVersion): BooleanResult {
    return rules.has('boolean-result-object', version) ? { success: true } : true;
  },
};
