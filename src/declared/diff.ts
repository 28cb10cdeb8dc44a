/**
 * What applying a declaration over the applied one changes, classified the way evolution treats
 * each kind: additions and renames are free, new derived lists are backfilled, removals are
 * hidden at once and deleted only by prune.
 */
import type { Declaration, EdgeDecl, StorageKeys } from './model.js';
import { storageKeysOf } from './storage-keys.js';

export type Change =
  | { kind: 'add'; what: string }
  | { kind: 'rename'; what: string; from: string }
  /** Data kept under `storage` until `schema prune`. */
  | { kind: 'remove'; what: string; storage: string }
  /** Derived associations to fill from existing data. */
  | { kind: 'backfill'; what: string; step: BackfillStep }
  | { kind: 'change'; what: string };

/** One derived list to fill: `assoc` reversed from the links of `of`, or the list behind a ref field. */
export type BackfillStep =
  | { from: 'inverse'; assoc: string; of: string }
  | { from: 'field'; assoc: string; objectType: string; key: string };

type Kind = 'types' | 'fields' | 'edges';
const KINDS: readonly Kind[] = ['types', 'fields', 'edges'];

export function diffDeclarations(
  previous: { declaration: Declaration; storage: StorageKeys } | undefined,
  next: Declaration,
): { changes: Change[]; storage: StorageKeys } {
  const storage = storageKeysOf(next, previous?.storage);
  if (!previous) return { changes: [{ kind: 'add', what: `schema ${next.name}` }], storage };
  const before = storageKeysOf(previous.declaration, previous.storage);
  const changes: Change[] = [];
  for (const kind of KINDS) {
    // A field's key is its type's own: the same key in two types is two things.
    const place = (keys: StorageKeys, name: string, key: string) => (kind === 'fields' ? `${keys.types[name.split('.')[0]!]}\u0000${key}` : key);
    const oldByKey = invert(before[kind], (name, key) => place(before, name, key));
    const newByKey = invert(storage[kind], (name, key) => place(storage, name, key));
    for (const [name, key] of Object.entries(storage[kind])) {
      const old = oldByKey.get(place(storage, name, key));
      if (old === undefined) changes.push({ kind: 'add', what: `${singular(kind)} ${name}` });
      else if (old !== name) changes.push({ kind: 'rename', what: `${singular(kind)} ${name}`, from: old });
    }
    for (const [name, key] of Object.entries(before[kind])) {
      if (!newByKey.has(place(before, name, key))) changes.push({ kind: 'remove', what: `${singular(kind)} ${name}`, storage: key });
    }
  }
  for (const [typeName, type] of Object.entries(next.types)) {
    for (const [edgeName, edge] of Object.entries(type.edges ?? {})) {
      const oldEdge = edgeBefore(previous.declaration, previous.storage, storage.edges[`${typeName}.${edgeName}`]!);
      const step = backfillOf(next, storage, typeName, edgeName, edge, oldEdge);
      if (step) changes.push({ kind: 'backfill', what: `edge ${typeName}.${edgeName}`, step });
    }
  }
  if (previous.declaration.principal !== next.principal) changes.push({ kind: 'change', what: `principal ${String(next.principal)}` });
  return { changes, storage };
}

/**
 * The list to fill when an edge gains `inverse:` (the other direction of every existing link) or
 * `backed_by:` (one link per node whose ref field points here), or is new and backed by a field
 * that already holds data.
 */
function backfillOf(
  next: Declaration,
  storage: StorageKeys,
  typeName: string,
  edgeName: string,
  edge: EdgeDecl,
  before: EdgeDecl | undefined,
): BackfillStep | undefined {
  const assoc = storage.edges[`${typeName}.${edgeName}`]!;
  if (edge.backed_by !== undefined && edge.backed_by !== before?.backed_by) {
    const [fromType, field] = edge.backed_by.split('.') as [string, string];
    const decl = next.types[fromType]?.fields?.[field];
    if (decl?.source === 'owner') return { from: 'field', assoc, objectType: storage.types[fromType]!, key: '' };
    return { from: 'field', assoc, objectType: storage.types[fromType]!, key: storage.fields[`${fromType}.${field}`]! };
  }
  if (edge.inverse !== undefined && before !== undefined && before.inverse === undefined) {
    // The other direction of every link this edge already holds.
    return { from: 'inverse', assoc: storage.edges[`${edge.to}.${edge.inverse}`]!, of: assoc };
  }
  return undefined;
}

/** The edge of the previous declaration stored under this association type. */
function edgeBefore(declaration: Declaration, pinned: StorageKeys, assoc: string): EdgeDecl | undefined {
  const keys = storageKeysOf(declaration, pinned);
  for (const [name, key] of Object.entries(keys.edges)) {
    if (key !== assoc) continue;
    const [typeName, edgeName] = name.split('.') as [string, string];
    return declaration.types[typeName]?.edges?.[edgeName];
  }
  return undefined;
}

function invert(map: Record<string, string>, place: (name: string, key: string) => string): Map<string, string> {
  return new Map(Object.entries(map).map(([name, key]) => [place(name, key), name]));
}

function singular(kind: Kind): string {
  return kind.slice(0, -1);
}

export function describeChange(change: Change): string {
  switch (change.kind) {
    case 'add':
      return `+ ${change.what}`;
    case 'rename':
      return `~ ${change.what} (renamed from ${change.from}; its data stays where it is)`;
    case 'remove':
      return `- ${change.what} (hidden now; its data stays under "${change.storage}" until "loom schema prune")`;
    case 'backfill':
      return `* ${change.what} (filled from existing data)`;
    case 'change':
      return `! ${change.what}`;
  }
}
