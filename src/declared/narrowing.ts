/**
 * Narrowing changes: a field that stays (same type, same storage key) but accepts less than it
 * did, so data stored under the old rules may break the new ones. `loom schema apply` refuses
 * them unless forced; `loom schema check --data` lists the stored objects they would reject.
 */
import type { Store } from '../store/store.js';
import type { StoredObject } from '../store/graph-store.js';
import type { Declaration, FieldDecl, StorageKeys } from './model.js';
import { storageKeysOf } from './storage-keys.js';

/** Rows read and written per transaction while the data follows a new declaration (backfills, prunes, narrowing checks). */
export const EVOLUTION_BATCH = 1000;

export interface Narrowing {
  /** `type.field` as the new declaration names it. */
  field: string;
  /** What changed, for people: `max_length 80 → 40`. */
  change: string;
  objectType: string;
  /** Key of the value in the object's data. */
  key: string;
  /** Why a stored value breaks the new rule; undefined when it does not. */
  problem(value: unknown): string | undefined;
}

/** One kind of narrowing: whether it happened between two versions of a field, and what it rejects. */
interface Rule {
  narrows(before: FieldDecl | undefined, after: FieldDecl): string | undefined;
  problem(after: FieldDecl, value: unknown): string | undefined;
}

const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const absent = (value: unknown) => value === undefined || value === null;

/** Every narrowing Loom recognises, in one table. */
const RULES: readonly Rule[] = [
  {
    // Enum values removed (or an enum made of a field that took any text).
    narrows: (before, after) => {
      if (after.values === undefined) return undefined;
      const removed = (before?.values ?? []).filter((value) => !after.values!.includes(value));
      if (removed.length > 0) return `enum values removed: ${removed.join(', ')}`;
      return before !== undefined && before.values === undefined ? `now one of: ${after.values.join(', ')}` : undefined;
    },
    problem: (after, value) => {
      const bad = itemsOf(value).find((item) => !absent(item) && !after.values!.includes(String(item)));
      return bad === undefined ? undefined : `"${String(bad)}" is not one of ${after.values!.join(', ')}`;
    },
  },
  {
    narrows: (before, after) =>
      after.max_length !== undefined && (before?.max_length === undefined || before.max_length > after.max_length)
        ? `max_length ${before?.max_length ?? 'none'} → ${after.max_length}`
        : undefined,
    problem: (after, value) => {
      const bad = itemsOf(value).find((item) => typeof item === 'string' && [...item].length > after.max_length!);
      return bad === undefined ? undefined : `longer than ${after.max_length} characters`;
    },
  },
  {
    // A default answers for a missing value, so only a required field without one narrows.
    narrows: (before, after) => (after.required === true && before?.required !== true && after.default === undefined ? 'now required' : undefined),
    problem: (_after, value) => (absent(value) ? 'has no value, and the field is now required' : undefined),
  },
  {
    narrows: (before, after) => (before?.type === 'float' && after.type === 'int' ? 'float → int' : undefined),
    problem: (_after, value) => (typeof value === 'number' && !Number.isInteger(value) ? 'not a whole number' : undefined),
  },
];

/**
 * The narrowings from the applied declaration to the next one. A field new to a type that
 * existed is compared with nothing, so a new required field narrows (stored objects lack it).
 */
export function narrowingsOf(previous: { declaration: Declaration; storage: StorageKeys } | undefined, next: Declaration, storage: StorageKeys): Narrowing[] {
  if (previous === undefined) return [];
  const before = storageKeysOf(previous.declaration, previous.storage);
  const oldTypes = new Set(Object.values(before.types));
  const oldFields = new Map<string, FieldDecl>();
  for (const [name, key] of Object.entries(before.fields)) {
    const [typeName, fieldName] = name.split('.') as [string, string];
    oldFields.set(`${before.types[typeName]}\u0000${key}`, previous.declaration.types[typeName]!.fields![fieldName]!);
  }
  const narrowings: Narrowing[] = [];
  for (const [typeName, type] of Object.entries(next.types)) {
    const objectType = storage.types[typeName]!;
    if (!oldTypes.has(objectType)) continue;
    for (const [fieldName, field] of Object.entries(type.fields ?? {})) {
      // Values a source or the code module gives are not stored in the object's data.
      if (field.source !== undefined || field.computed !== undefined) continue;
      const key = storage.fields[`${typeName}.${fieldName}`]!;
      const old = oldFields.get(`${objectType}\u0000${key}`);
      for (const rule of RULES) {
        const change = rule.narrows(old, field);
        if (change !== undefined) narrowings.push({ field: `${typeName}.${fieldName}`, change, objectType, key, problem: (value) => rule.problem(field, value) });
      }
    }
  }
  return narrowings;
}

/** An apply refused: the declaration narrows fields that stored data may break. */
export class NarrowingError extends Error {
  constructor(
    readonly file: string,
    readonly narrowings: readonly Narrowing[],
  ) {
    super(
      `the declaration narrows fields that hold data:\n${narrowings.map(describeNarrowing).join('\n')}\n` +
        `"loom schema check ${file} --data" lists the stored objects that break the new rules; apply with --force once none do (or to accept them)`,
    );
    this.name = 'NarrowingError';
  }
}

export function describeNarrowing(narrowing: Narrowing): string {
  return `! field ${narrowing.field}: ${narrowing.change}`;
}

export interface Offender {
  id: number;
  /** The team's key of the node; undefined for a node stored without one. */
  key: string | undefined;
  field: string;
  value: unknown;
  reason: string;
}

/** Offenders listed at most; the rest are counted. */
export const MAX_LISTED = 1000;

/** Scans the stored objects of the narrowed types, in batches, for values the new rules reject. */
export async function findOffenders(store: Store, narrowings: readonly Narrowing[]): Promise<{ offenders: Offender[]; total: number }> {
  const byType = new Map<string, Narrowing[]>();
  for (const narrowing of narrowings) byType.set(narrowing.objectType, [...(byType.get(narrowing.objectType) ?? []), narrowing]);
  const offenders: Offender[] = [];
  let total = 0;
  let after: number | undefined;
  for (;;) {
    const records = await store.scanRecords('object', after === undefined ? undefined : [after], EVOLUTION_BATCH);
    for (const record of records) {
      if (record.record !== 'object') continue;
      for (const narrowing of byType.get(record.type) ?? []) {
        const value = (record as StoredObject).data[narrowing.key];
        const reason = narrowing.problem(value);
        if (reason === undefined) continue;
        total += 1;
        if (offenders.length < MAX_LISTED) offenders.push({ id: record.id, key: undefined, field: narrowing.field, value: value ?? null, reason });
      }
    }
    if (records.length < EVOLUTION_BATCH) break;
    after = (records.at(-1) as { id: number }).id;
  }
  await nameByKeys(store, offenders);
  return { offenders, total };
}

/** Fills in the team's keys of the offenders, from the key table, a batch at a time. */
async function nameByKeys(store: Store, offenders: Offender[]): Promise<void> {
  if (offenders.length === 0) return;
  const byId = new Map<number, Offender[]>();
  for (const offender of offenders) byId.set(offender.id, [...(byId.get(offender.id) ?? []), offender]);
  let after: Array<number | string> | undefined;
  for (;;) {
    const records = await store.scanRecords('declaredKey', after, EVOLUTION_BATCH);
    for (const record of records) {
      if (record.record === 'declaredKey') for (const offender of byId.get(record.id) ?? []) offender.key = record.key;
    }
    if (records.length < EVOLUTION_BATCH) return;
    const last = records.at(-1) as { type: string; key: string };
    after = [last.type, last.key];
  }
}
