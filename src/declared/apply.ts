/**
 * `loom schema apply` and `loom schema prune`: record a declaration as the database's next
 * version, with its storage keys pinned, after checking it compiles; fill derived lists it adds
 * in resumable batches; and, separately, delete the data of names no longer declared.
 */
import { createHash } from 'node:crypto';
import { registerApp } from '../auth/apps.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import type { Association, StoredObject } from '../store/graph-store.js';
import type { WriteOp } from '../store/write-ops.js';
import { readAppliedSchema, type AppliedSchema } from './applied.js';
import { buildDeclaredSchema } from './declared-schema.js';
import { diffDeclarations, type BackfillStep, type Change } from './diff.js';
import type { LoadedDeclaration, StorageKeys } from './model.js';
import { EVOLUTION_BATCH, NarrowingError, narrowingsOf, type Narrowing } from './narrowing.js';
import { mergePinned, storageKeysOf } from './storage-keys.js';

/** Where an interrupted backfill records how far it got, so the next apply resumes there. */
const BACKFILL_SETTING = 'schema.backfill';

export interface ApplyOptions {
  /** Only work out what would change; record nothing. */
  dryRun?: boolean;
  /** Record a narrowing change too, whatever the stored data holds. */
  force?: boolean;
}

export interface ApplyResult {
  changes: Change[];
  /** Fields that accept less than before (see narrowing.ts). */
  narrowings: Narrowing[];
  /** The version recorded; undefined when the declaration equals the applied one. */
  version: number | undefined;
  app: AppRecord;
  /** Derived associations written by backfills. */
  backfilled: number;
}

export async function applyDeclaration(store: Store, loaded: LoadedDeclaration, now: number, options: ApplyOptions = {}): Promise<ApplyResult> {
  if (options.dryRun) return recordDeclaration(store, loaded, now, options);
  // Applies take turns: each diffs against, and numbers itself after, the version recorded before it.
  const result = await store.changeSchemaAlone(() => recordDeclaration(store, loaded, now, options));
  // Outside the turn: a long backfill holds up no other apply, and resumes if this one is cut short.
  return { ...result, backfilled: await resumeBackfill(store) };
}

async function recordDeclaration(store: Store, loaded: LoadedDeclaration, now: number, { dryRun = false, force = false }: ApplyOptions): Promise<ApplyResult> {
  const previous = await readAppliedSchema(store);
  const { changes, storage } = diffDeclarations(previous, loaded.declaration);
  const narrowings = narrowingsOf(previous, loaded.declaration, storage);
  // Compiling checks every reference and the code module: nothing is recorded for a declaration that cannot be served.
  await buildDeclaredSchema(loaded.declaration, loaded.file, storage, loaded.locate);
  const text = loaded.text;
  const hash = createHash('sha256').update(text).digest('hex');
  const app = previous ? await existingApp(store, previous) : undefined;
  const unchanged = previous !== undefined && previous.hash === hash && previous.source === loaded.file;
  if (dryRun) return { changes: unchanged ? [] : changes, narrowings: unchanged ? [] : narrowings, version: undefined, app: app!, backfilled: 0 };
  if (!unchanged && narrowings.length > 0 && !force) throw new NarrowingError(loaded.file, narrowings);
  const schemaApp = app ?? (await registerApp(store, { name: loaded.declaration.name, now }));
  let version: number | undefined;
  if (!unchanged) {
    const record = await store.recordSchemaVersion({
      name: loaded.declaration.name,
      hash,
      text,
      storage: JSON.stringify(mergePinned(previous?.storage, storage)),
      source: loaded.file,
      appId: schemaApp.id,
      appliedTime: now,
    });
    version = record.version;
    const steps = changes.flatMap((change) => (change.kind === 'backfill' ? [change.step] : []));
    if (steps.length > 0) await store.setSetting(BACKFILL_SETTING, JSON.stringify({ version, steps, done: 0, after: null }));
  }
  return { changes: unchanged ? [] : changes, narrowings: unchanged ? [] : narrowings, version, app: schemaApp, backfilled: 0 };
}

async function existingApp(store: Store, applied: AppliedSchema): Promise<AppRecord> {
  const app = (await store.getApps([applied.appId])).get(applied.appId);
  if (!app) throw new Error(`The app of schema ${applied.name} (id ${applied.appId}) no longer exists`);
  return app;
}

interface BackfillState {
  version: number;
  steps: BackfillStep[];
  /** Steps finished. */
  done: number;
  /** Scan position inside the current step. */
  after: Array<number | string> | null;
}

/**
 * Runs what is left of the recorded backfill, one short transaction per batch, saving the
 * position after each so an interrupted apply picks up where it stopped. Every intermediate
 * state is servable: a derived list only grows.
 */
export async function resumeBackfill(store: Store): Promise<number> {
  const saved = await store.getSetting(BACKFILL_SETTING);
  if (!saved) return 0;
  const state = JSON.parse(saved) as BackfillState;
  let written = 0;
  while (state.done < state.steps.length) {
    const step = state.steps[state.done]!;
    const kind = step.from === 'inverse' ? 'association' : 'object';
    const records = await store.scanRecords(kind, state.after ?? undefined, EVOLUTION_BATCH);
    const ops: WriteOp[] = [];
    for (const record of records) {
      if (step.from === 'inverse' && record.record === 'association' && record.type === step.of) {
        ops.push({ op: 'addAssoc', type: step.assoc, id1: record.id2, id2: record.id1, time: record.time });
      }
      if (step.from === 'field' && record.record === 'object' && record.type === step.objectType) {
        const target = step.key === '' ? record.owner : record.data[step.key];
        if (typeof target === 'number') ops.push({ op: 'addAssoc', type: step.assoc, id1: target, id2: record.id, time: record.createdTime });
      }
    }
    if (ops.length > 0) written += (await store.write(ops)).results.filter((added) => added === true).length;
    const last = records.at(-1);
    if (records.length < EVOLUTION_BATCH || !last) {
      state.done += 1;
      state.after = null;
    } else {
      state.after = last.record === 'association' ? [last.id1, last.type, last.id2] : [(last as { id: number }).id];
    }
    await store.setSetting(BACKFILL_SETTING, JSON.stringify(state));
  }
  await store.setSetting(BACKFILL_SETTING, '');
  return written;
}

export interface PruneResult {
  /** Data keys removed, as `type.key`. */
  fields: string[];
  /** Association types emptied. */
  edges: string[];
  /** Objects rewritten plus associations deleted. */
  rows: number;
}

/**
 * Deletes what the applied declaration no longer names: the data keys of removed fields and the
 * associations of removed edges, in batches, then records the storage keys without them (so the
 * names cannot come back to stale data).
 */
export async function pruneDeclaration(store: Store, now: number): Promise<PruneResult> {
  const applied = await readAppliedSchema(store);
  if (!applied) throw new Error('No schema has been applied to this database');
  const current = storageKeysOf(applied.declaration, applied.storage);
  const liveFields = new Set(Object.entries(current.fields).map(([name, key]) => `${current.types[name.split('.')[0]!]}\u0000${key}`));
  const liveEdges = new Set(Object.values(current.edges));
  const staleFields = new Map<string, Set<string>>();
  const kept: StorageKeys = { types: { ...applied.storage.types }, fields: {}, edges: {} };
  for (const [name, key] of Object.entries(applied.storage.fields)) {
    const typeName = name.split('.')[0]!;
    const objectType = applied.storage.types[typeName] ?? typeName;
    if (liveFields.has(`${objectType}\u0000${key}`)) kept.fields[name] = key;
    else staleFields.set(objectType, (staleFields.get(objectType) ?? new Set()).add(key));
  }
  const staleEdges = new Set<string>();
  for (const [name, key] of Object.entries(applied.storage.edges)) {
    if (liveEdges.has(key)) kept.edges[name] = key;
    else staleEdges.add(key);
  }
  let rows = 0;
  if (staleFields.size > 0) rows += await stripKeys(store, staleFields);
  if (staleEdges.size > 0) rows += await deleteAssociations(store, staleEdges);
  await store.recordSchemaVersion({
    name: applied.name,
    hash: applied.hash,
    text: applied.text,
    storage: JSON.stringify(kept),
    source: applied.source,
    appId: applied.appId,
    appliedTime: now,
  });
  return {
    fields: [...staleFields].flatMap(([type, keys]) => [...keys].map((key) => `${type}.${key}`)),
    edges: [...staleEdges],
    rows,
  };
}

async function stripKeys(store: Store, stale: ReadonlyMap<string, ReadonlySet<string>>): Promise<number> {
  let after: number | undefined;
  let rewritten = 0;
  for (;;) {
    const records = await store.scanRecords('object', after === undefined ? undefined : [after], EVOLUTION_BATCH);
    const ops: WriteOp[] = [];
    for (const record of records) {
      if (record.record !== 'object') continue;
      const keys = stale.get(record.type);
      const present = keys ? [...keys].filter((key) => Object.hasOwn(record.data, key)) : [];
      if (present.length === 0) continue;
      // A null removes the key; the node keeps its updated_time, as nothing a client wrote changed.
      ops.push({ op: 'updateObject', id: record.id, data: Object.fromEntries(present.map((key) => [key, null])), updatedTime: (record as StoredObject).updatedTime });
    }
    if (ops.length > 0) await store.write(ops);
    rewritten += ops.length;
    if (records.length < EVOLUTION_BATCH) return rewritten;
    after = (records.at(-1) as { id: number }).id;
  }
}

async function deleteAssociations(store: Store, stale: ReadonlySet<string>): Promise<number> {
  let after: Array<number | string> | undefined;
  let deleted = 0;
  for (;;) {
    const records = await store.scanRecords('association', after, EVOLUTION_BATCH);
    const ops: WriteOp[] = records
      .filter((record): record is { record: 'association' } & Association => record.record === 'association' && stale.has(record.type))
      .map((record) => ({ op: 'removeAssoc' as const, type: record.type, id1: record.id1, id2: record.id2 }));
    if (ops.length > 0) await store.write(ops);
    deleted += ops.length;
    if (records.length < EVOLUTION_BATCH) return deleted;
    const last = records.at(-1) as Association;
    after = [last.id1, last.type, last.id2];
  }
}
