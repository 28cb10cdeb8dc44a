import type { IdOrRef, WriteOp } from '../store/write-ops.js';

/**
 * What webhooks can report: the objects an app subscribes to, and which write makes which field
 * of a person or page change. This is the one table the outbox and the Subscriptions API read.
 */

/** Fields an app may subscribe to, per object. `permissions` takes any scope name. */
export const SUBSCRIBABLE_FIELDS: Readonly<Record<string, ReadonlySet<string> | 'any'>> = {
  user: new Set([
    'feed', 'friends', 'likes', 'photos', 'name', 'first_name', 'last_name', 'picture', 'email', 'location',
    'hometown', 'about', 'birthday', 'gender', 'locale', 'website', 'bio', 'education', 'work', 'religion', 'political',
  ]),
  page: new Set(['feed', 'name', 'about', 'description', 'picture', 'website', 'phone', 'category', 'location']),
  permissions: 'any',
};

/** An association added to or removed from `id1` changes this field of `id1`. */
const ASSOCIATION_FIELDS: Readonly<Record<string, string>> = {
  feed: 'feed',
  friends: 'friends',
  // A person's likes: the posts and photos they like and the pages they like.
  liked: 'likes',
  liked_pages: 'likes',
  photos: 'photos',
};

/** The field of a person or page an association type stands for, if any. */
function associationField(type: string): string | undefined {
  return Object.hasOwn(ASSOCIATION_FIELDS, type) ? ASSOCIATION_FIELDS[type] : undefined;
}

/**
 * The outbox ops for a write batch: one per (object, field) the batch changes. Which of them an
 * app hears of is decided later, when they are turned into notifications, so a write never waits
 * on looking up subscriptions.
 */
export function changeOps(ops: readonly WriteOp[], time: number): WriteOp[] {
  const seen = new Set<string>();
  const changes: WriteOp[] = [];
  const add = (subject: IdOrRef, field: string) => {
    const key = `${typeof subject === 'number' ? subject : `ref${subject.ref}`}:${field}`;
    if (seen.has(key)) return;
    seen.add(key);
    changes.push({ op: 'recordChange', subject, field, time });
  };
  for (const op of ops) {
    if (op.op === 'addAssoc' || op.op === 'removeAssoc') {
      const field = associationField(op.type);
      if (field !== undefined) add(op.id1, field);
    } else if (op.op === 'updateObject') {
      for (const field of Object.keys(op.data)) add(op.id, field);
    }
  }
  return changes;
}
