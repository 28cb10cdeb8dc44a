/** A post's `privacy` object, in the shape of the version asked. */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';
import { rules } from '../schema/versions.js';

/** The lists a privacy setting may name, which the older versions always sent. */
const LISTS = ['friends', 'networks', 'allow', 'deny'] as const;

export function postPrivacy(object: StoredNode, context: FieldContext): unknown {
  const stored = object.data.privacy;
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored) || !rules.has('privacy-lists', context.version)) return stored ?? undefined;
  const { description, value, ...rest } = stored as Record<string, unknown>;
  const lists = Object.fromEntries(LISTS.map((name) => [name, rest[name] ?? '']));
  return { ...(description === undefined ? {} : { description }), value, ...lists, ...rest };
}
