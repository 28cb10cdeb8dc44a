/** A post's and a video's `privacy` object, in the shape of the version asked. */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';
import { rules } from '../schema/versions.js';

/** The lists a privacy setting may name, which the older versions always sent. */
const LISTS = ['friends', 'networks', 'allow', 'deny'] as const;

type Setting = Record<string, unknown>;

const settingOf = (object: StoredNode): Setting | undefined => {
  const stored = object.data.privacy;
  return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Setting) : undefined;
};

/** The setting with every list after its description and value, empty strings for those unset. */
function withLists(setting: Setting): Setting {
  const { description, value, ...rest } = setting;
  const lists = Object.fromEntries(LISTS.map((name) => [name, rest[name] ?? '']));
  return { ...(description === undefined ? {} : { description }), value, ...lists, ...rest };
}

export function postPrivacy(object: StoredNode, context: FieldContext): unknown {
  const setting = settingOf(object);
  if (setting === undefined || !rules.has('privacy-lists', context.version)) return object.data.privacy ?? undefined;
  return withLists(setting);
}

/** A video's setting carries its lists in every version that has the field (restfb v2_4/video-newfields.json). */
export function videoPrivacy(object: StoredNode): unknown {
  const setting = settingOf(object);
  return setting === undefined ? undefined : withLists(setting);
}
