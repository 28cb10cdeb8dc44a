/**
 * The permission catalogue: every permission an app may ask for, with what granting it means,
 * grouped for the person choosing them (the Explorer's token panel, the sign-in dialog's consent
 * page). Test-user creation, the dialog and `/me/permissions` accept the names this table offers
 * in the API version of the request. What each permission unlocks is read from the schema, so the
 * explanation cannot drift from what the engine enforces.
 */
import type { Schema } from './registry.js';
import { DEFAULT_API_VERSION, withinVersions, type ApiVersion } from './versions.js';

/** Granted with every authorisation and revoked only with the whole app: a POST that names it needs no permission at all. */
export const ALWAYS_GRANTED = 'public_profile';

/**
 * What a page token must carry to act as its page where a person's write needs the permission
 * named on the left: a page posts, comments and likes with `publish_pages`.
 */
const PAGE_ACTING_SCOPES: Readonly<Record<string, string>> = { publish_actions: 'publish_pages' };

/** The permission a write needs from this kind of token. */
export function actingScope(kind: 'user' | 'app' | 'page', scope: string): string {
  return kind === 'page' ? (PAGE_ACTING_SCOPES[scope] ?? scope) : scope;
}

type GroupName = 'Basics' | 'Profile' | 'Friends' | 'Activity' | 'Actions' | 'Publishing' | 'Pages' | 'Insights and ads' | 'Retired';

/**
 * One permission across API versions: offered from `since` on and, when `until` is set, no
 * longer from that version on (it is then refused like a name that never existed).
 */
export interface PermissionDef {
  name: string;
  group: GroupName;
  /** What granting it means, in a sentence the person reads before granting it. */
  description: string;
  since: string;
  until?: string;
  /** In the versions that offer it, this permission also reads what that one does (read_stream what user_posts does). */
  reads?: string;
}

const GROUP_TEXT: Record<GroupName, string> = {
  Basics: 'Who the person is.',
  Profile: 'What the person tells about themselves.',
  Friends: 'The people around the person.',
  Activity: 'What the person posts, likes and takes part in.',
  Actions: 'What the person does in apps: books read, runs, songs, news and videos.',
  Publishing: 'Acting for the person.',
  Pages: 'The Pages the person manages.',
  'Insights and ads': 'Statistics and ad accounts of what the person owns.',
  Retired: 'Permissions of earlier API versions.',
};

/** Since and until follow the versions' changelogs: read_stream and its kin made way for user_posts in v2.4. */
export const PERMISSIONS: readonly PermissionDef[] = [
  { name: 'public_profile', group: 'Basics', since: 'v1.0', description: 'Name, picture, gender, locale and the other parts of a profile anyone can see. Always granted.' },
  { name: 'email', group: 'Basics', since: 'v1.0', description: 'The main email address of the person.' },
  { name: 'user_about_me', group: 'Profile', since: 'v1.0', description: 'The about and bio sections of the profile.' },
  { name: 'user_birthday', group: 'Profile', since: 'v1.0', description: 'Date of birth.' },
  { name: 'user_education_history', group: 'Profile', since: 'v1.0', description: 'Schools and colleges attended.' },
  { name: 'user_work_history', group: 'Profile', since: 'v1.0', description: 'Employers and positions held.' },
  { name: 'user_hometown', group: 'Profile', since: 'v1.0', description: 'The town the person comes from.' },
  { name: 'user_location', group: 'Profile', since: 'v1.0', description: 'The city the person lives in now.' },
  { name: 'user_relationships', group: 'Profile', since: 'v1.0', description: 'Relationship status, significant other and family.' },
  { name: 'user_relationship_details', group: 'Profile', since: 'v1.0', description: 'Which people the person is interested in and what for.' },
  { name: 'user_religion_politics', group: 'Profile', since: 'v1.0', description: 'Religious and political views.' },
  { name: 'user_website', group: 'Profile', since: 'v1.0', description: 'The personal website address.' },
  { name: 'user_friends', group: 'Friends', since: 'v2.0', description: 'Friends who also use the app (the summary counts all of them).' },
  { name: 'read_custom_friendlists', group: 'Friends', since: 'v2.3', description: 'The lists the person sorted their friends into.' },
  { name: 'user_posts', group: 'Activity', since: 'v2.3', description: "Posts on the person's wall and news feed." },
  { name: 'user_photos', group: 'Activity', since: 'v1.0', description: 'Albums and photos.' },
  { name: 'user_videos', group: 'Activity', since: 'v1.0', description: 'Videos uploaded or tagged in.' },
  { name: 'user_likes', group: 'Activity', since: 'v1.0', description: 'Pages liked: books, films, music, teams and more.' },
  { name: 'user_events', group: 'Activity', since: 'v1.0', description: 'Events the person hosts or is invited to.' },
  { name: 'user_tagged_places', group: 'Activity', since: 'v2.0', description: 'Places the person was tagged at.' },
  { name: 'user_managed_groups', group: 'Activity', since: 'v2.3', description: 'Groups the person manages.' },
  { name: 'user_games_activity', group: 'Activity', since: 'v1.0', description: 'Games played and scores reached.' },
  { name: 'user_actions.books', group: 'Actions', since: 'v1.0', description: 'Books read, wanted or rated in apps.' },
  { name: 'user_actions.fitness', group: 'Actions', since: 'v1.0', description: 'Runs, walks and rides logged in apps.' },
  { name: 'user_actions.music', group: 'Actions', since: 'v1.0', description: 'Songs listened to in apps.' },
  { name: 'user_actions.news', group: 'Actions', since: 'v1.0', description: 'News articles read in apps.' },
  { name: 'user_actions.video', group: 'Actions', since: 'v1.0', description: 'Films and shows watched or rated in apps.' },
  { name: 'publish_actions', group: 'Publishing', since: 'v1.0', description: 'Post to walls, comment, like and unlike, and delete what the person wrote.' },
  { name: 'rsvp_event', group: 'Publishing', since: 'v1.0', description: 'Answer event invitations for the person.' },
  { name: 'manage_pages', group: 'Pages', since: 'v1.0', description: 'Page access tokens of the Pages the person manages, and their settings.' },
  { name: 'publish_pages', group: 'Pages', since: 'v2.3', description: 'Post, comment and like as the Pages the person manages.' },
  { name: 'read_page_mailboxes', group: 'Pages', since: 'v2.3', description: 'The messages sent to the Pages the person manages.' },
  { name: 'read_insights', group: 'Insights and ads', since: 'v1.0', description: 'Insights of the Pages, apps and web sites the person owns.' },
  { name: 'read_audience_network_insights', group: 'Insights and ads', since: 'v2.4', description: 'Audience Network insights of the apps the person owns.' },
  { name: 'ads_read', group: 'Insights and ads', since: 'v2.2', description: 'Read the ad accounts the person has access to.' },
  { name: 'ads_management', group: 'Insights and ads', since: 'v1.0', description: 'Manage the ad accounts the person has access to.' },
  { name: 'read_stream', group: 'Retired', since: 'v1.0', until: 'v2.4', reads: 'user_posts', description: 'The news feed; user_posts took its place.' },
  { name: 'user_status', group: 'Retired', since: 'v1.0', until: 'v2.4', reads: 'user_posts', description: 'Status updates; user_posts took its place.' },
  { name: 'user_groups', group: 'Retired', since: 'v1.0', until: 'v2.4', reads: 'user_managed_groups', description: 'Groups the person is in; user_managed_groups took its place.' },
  { name: 'read_mailbox', group: 'Retired', since: 'v1.0', until: 'v2.4', description: "The person's inbox." },
  { name: 'manage_notifications', group: 'Retired', since: 'v1.0', until: 'v2.4', description: "The person's notifications." },
  { name: 'read_friendlists', group: 'Retired', since: 'v1.0', until: 'v2.3', reads: 'read_custom_friendlists', description: 'Friend lists; read_custom_friendlists took its place.' },
  { name: 'user_checkins', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Check-ins; user_tagged_places took their place.' },
  { name: 'user_interests', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Interests listed on the profile.' },
  { name: 'user_activities', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Activities listed on the profile.' },
  { name: 'user_online_presence', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Whether the person is online.' },
  { name: 'xmpp_login', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Chat through XMPP.' },
  { name: 'publish_stream', group: 'Retired', since: 'v1.0', until: 'v2.0', description: 'Posting; publish_actions took its place.' },
];

const byName = new Map(PERMISSIONS.map((permission) => [permission.name, permission]));

/** Whether the catalogue offers the permission in this version. */
export function offeredIn(permission: PermissionDef, version: ApiVersion = DEFAULT_API_VERSION): boolean {
  return withinVersions(version, permission.since, permission.until);
}

/** The permissions offered in this version, in catalogue order. */
export function offeredPermissions(version: ApiVersion = DEFAULT_API_VERSION): PermissionDef[] {
  return PERMISSIONS.filter((permission) => offeredIn(permission, version));
}

/** The permissions that, in this version, read what `scope` reads: itself and those standing in for it. */
export function readersOf(scope: string, version: ApiVersion): string[] {
  return [scope, ...PERMISSIONS.filter((permission) => permission.reads === scope && offeredIn(permission, version)).map((permission) => permission.name)];
}

/** A permission's entry in the catalogue, whatever versions offered it. */
export function permissionDef(name: string): PermissionDef | undefined {
  return byName.get(name);
}

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

/**
 * Every permission an app may request (the catalogue's offered ones and any the schema relies
 * on), in the catalogue's groups; permissions the catalogue does not describe come last, under
 * "Other", saying what they are needed for.
 */
export function describePermissions(schema: Schema): PermissionGroup[] {
  const unlocks = new Map<string, PermissionInfo>();
  for (const scope of schema.allScopes()) unlocks.set(scope, { name: scope, description: '', fields: [], edges: [], writes: [] });
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
      const write = edge.post && edge.post.by !== 'app' ? edge.post.scope : undefined;
      if (write) unlocks.get(write)?.writes.push(`${type.name}/${edge.name}`);
    }
  }

  const groups = new Map<string, PermissionGroup>();
  const placed = new Set<string>();
  for (const permission of offeredPermissions()) {
    const found = unlocks.get(permission.name);
    if (!found) continue;
    let group = groups.get(permission.group);
    if (!group) {
      group = { name: permission.group, description: GROUP_TEXT[permission.group], permissions: [] };
      groups.set(permission.group, group);
    }
    group.permissions.push({ ...found, description: permission.description });
    placed.add(permission.name);
  }
  const others = [...unlocks.values()].filter((permission) => !placed.has(permission.name));
  if (others.length > 0) {
    // A declared schema explains its own permissions; anything else the schema names has no text yet.
    const declared = schema.permissions;
    groups.set('Other', {
      name: 'Other',
      description: declared ? 'Permissions this schema declares.' : 'Permissions the schema relies on that have no explanation yet.',
      permissions: others.map((permission) => ({
        ...permission,
        description: declared?.[permission.name] ?? `Needed for ${[...permission.fields, ...permission.edges].join(', ')}.`,
      })),
    });
  }
  return [...groups.values()];
}
