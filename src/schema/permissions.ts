/**
 * The permissions an app may request, grouped and explained for the person choosing them (the
 * Explorer's token panel). Groups and wording are written here; what each permission unlocks is
 * read from the schema, so the explanation cannot drift from what the engine enforces.
 */
import type { Schema } from './registry.js';
import { PUBLISH } from './writes.js';

export interface PermissionInfo {
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

interface GroupText {
  name: string;
  description: string;
  /** Permission name → what granting it means, in a sentence. */
  permissions: Record<string, string>;
}

const GROUPS: readonly GroupText[] = [
  {
    name: 'Basics',
    description: 'Who the person is.',
    permissions: {
      public_profile: 'Name, picture, gender, locale and the other parts of a profile anyone can see. Always granted.',
      email: 'The main email address of the person.',
    },
  },
  {
    name: 'Profile',
    description: 'What the person tells about themselves.',
    permissions: {
      user_about_me: 'The about and bio sections of the profile.',
      user_birthday: 'Date of birth.',
      user_education_history: 'Schools and colleges attended.',
      user_work_history: 'Employers and positions held.',
      user_hometown: 'The town the person comes from.',
      user_location: 'The city the person lives in now.',
      user_relationships: 'Relationship status and significant other.',
      user_relationship_details: 'Which people the person is interested in and what for.',
      user_religion_politics: 'Religious and political views.',
      user_website: 'The personal website address.',
    },
  },
  {
    name: 'Friends',
    description: 'The people around the person.',
    permissions: {
      user_friends: 'Friends who also use the app (the summary counts all of them).',
      read_custom_friendlists: 'The lists the person sorted their friends into.',
    },
  },
  {
    name: 'Activity',
    description: 'What the person posts, likes and takes part in.',
    permissions: {
      user_posts: "Posts on the person's wall and news feed.",
      user_photos: 'Albums and photos.',
      user_videos: 'Videos uploaded or tagged in.',
      user_likes: 'Pages liked: books, films, music, teams and more.',
      user_events: 'Events the person hosts or is invited to.',
      user_tagged_places: 'Places the person was tagged at.',
      user_managed_groups: 'Groups the person manages.',
    },
  },
  {
    name: 'Publishing',
    description: 'Acting for the person.',
    permissions: {
      [PUBLISH]: 'Post to walls, comment, like and unlike, and delete what the person wrote.',
    },
  },
];

/** Every permission of the schema, in the groups above; any the groups do not name come last, under "Other". */
export function describePermissions(schema: Schema): PermissionGroup[] {
  const unlocks = new Map<string, PermissionInfo>();
  const info = (name: string, description: string): PermissionInfo => ({ name, description, fields: [], edges: [], writes: [] });
  for (const scope of schema.allScopes()) unlocks.set(scope, info(scope, ''));
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

  const groups: PermissionGroup[] = [];
  const placed = new Set<string>();
  for (const group of GROUPS) {
    const permissions: PermissionInfo[] = [];
    for (const [name, description] of Object.entries(group.permissions)) {
      const found = unlocks.get(name);
      if (!found) continue;
      permissions.push({ ...found, description });
      placed.add(name);
    }
    if (permissions.length > 0) groups.push({ name: group.name, description: group.description, permissions });
  }
  const others = [...unlocks.values()].filter((permission) => !placed.has(permission.name));
  if (others.length > 0) {
    groups.push({
      name: 'Other',
      description: 'Permissions the schema relies on that have no explanation yet.',
      permissions: others.map((permission) => ({ ...permission, description: `Needed for ${[...permission.fields, ...permission.edges].join(', ')}.` })),
    });
  }
  return groups;
}
