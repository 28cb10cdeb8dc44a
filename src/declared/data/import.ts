/**
 * Loads own data into a store whose schema was applied: nodes by their keys (a key seen before
 * updates its node in place), edges between keys, and sign-in logins. Lines go in batches of
 * 1,000, each checked whole before any of it is written, so a bad line leaves nothing of its batch
 * behind (a batch naming nodes it creates itself is written in more than one transaction, the
 * later ones once those nodes have ids). Lists Loom derives (`backed_by`, the other side of an
 * `inverse`), counts and sums are kept by Loom as it writes, never taken from the file.
 */
import { hashPassword } from '../../auth/passwords.js';
import { counterChangeOps, counterOps } from '../../store/counter-ops.js';
import { GraphError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Ref, WriteOp } from '../../store/write-ops.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ObjectId } from '../../ids.js';
import { DataLineError, type DataLine, type EdgeLine, type LoginLine, type NodeLine } from './lines.js';
import type { DataPlan, TypePlan } from './plan.js';
import { parseTime, refKeys } from './values.js';

/** Lines per batch. */
export const BATCH_LINES = 1000;
/** Lines waiting for a key by default (see maxParked). */
export const DEFAULT_MAX_PARKED = 100_000;

export interface ImportOptions {
  /** A node seen before gets exactly the line's fields (the others are removed) instead of a merge. */
  replace?: boolean;
  /**
   * Lines naming a key no line before them defined wait until the end, when they are tried again;
   * at most this many may wait.
   */
  maxParked?: number;
  /** Unix seconds: the created time of nodes and links whose line gives none. */
  now: number;
  /** Told after every batch how many lines were read so far. */
  onProgress?: (lines: number) => void;
  /**
   * Given, a bad line is handed here and left out, and the import goes on with the others (its
   * batch is checked again without it); absent, the first bad line stops the import.
   */
  reject?: (problem: DataLineError) => void;
}

export interface ImportSummary {
  created: number;
  updated: number;
  edges: number;
  /** Edge lines of lists Loom derives, which change nothing. */
  derivedEdges: number;
  logins: number;
}

/** `type` + NUL + `key`: a key of the key table. */
const keyId = (type: string, key: string) => `${type}\u0000${key}`;

export async function importData(store: Store, plan: DataPlan, lines: AsyncIterable<DataLine>, options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, edges: 0, derivedEdges: 0, logins: 0 };
  const maxParked = options.maxParked ?? DEFAULT_MAX_PARKED;
  let parked: DataLine[] = [];
  let chunk: DataLine[] = [];
  let read = 0;
  const run = async (lines: DataLine[]) => {
    const waiting = await importChunkSkipping(store, plan, lines, options, summary);
    parked.push(...waiting);
    if (parked.length > maxParked) {
      const first = parked[0]!;
      throw new DataLineError(first.source, first.number, `more than ${maxParked} lines name keys that no line before them defined; put nodes before the lines that refer to them, or raise --max-parked`);
    }
  };
  for await (const line of lines) {
    chunk.push(line);
    read += 1;
    if (chunk.length >= BATCH_LINES) {
      await run(chunk);
      chunk = [];
      options.onProgress?.(read);
    }
  }
  await run(chunk);
  options.onProgress?.(read);
  // Parked lines are tried again until a round makes no progress; what still waits names a key nobody defines.
  while (parked.length > 0) {
    const retry = parked;
    parked = [];
    for (let start = 0; start < retry.length; start += BATCH_LINES) await run(retry.slice(start, start + BATCH_LINES));
    if (parked.length === retry.length) {
      const unresolved = options.reject ? parked : parked.slice(0, 1);
      for (const line of unresolved) {
        const [type, key] = (await missingKeys(store, plan, [line]))[0] ?? ['', ''];
        const problem = new DataLineError(line.source, line.number, `no line defines the ${type} "${key}", and the database holds none`);
        if (!options.reject) throw problem;
        options.reject(problem);
      }
      parked = [];
    }
  }
  return summary;
}

/**
 * A chunk imported whole, or, when bad lines are to be skipped, without each line its check
 * finds bad: the check comes before any write, so a bad line leaves nothing behind either way.
 */
async function importChunkSkipping(store: Store, plan: DataPlan, chunk: DataLine[], options: ImportOptions, summary: ImportSummary): Promise<DataLine[]> {
  let lines = chunk;
  for (;;) {
    try {
      return await importChunk(store, plan, lines, options, summary);
    } catch (error) {
      if (!options.reject || !(error instanceof DataLineError)) throw error;
      const bad = lines.findIndex((line) => line.source === error.source && line.number === error.line);
      // A problem no single line of the chunk owns cannot be skipped.
      if (bad === -1) throw error;
      options.reject(error);
      lines = [...lines.slice(0, bad), ...lines.slice(bad + 1)];
    }
  }
}

/**
 * The keys a line needs: the keys of the nodes it names, and for a node line its own key (which
 * it may define). Each entry is [type, key, mustExist].
 */
function keysOfLine(plan: DataPlan, line: DataLine): Array<[string, string, boolean]> {
  const item = line.item;
  const fail = (problem: string) => new DataLineError(line.source, line.number, problem);
  if ('node' in item) {
    const type = plan.types.get(item.node);
    if (type === undefined) throw fail(`the schema has no type "${item.node}"`);
    const keys: Array<[string, string, boolean]> = [[type.name, item.key, false]];
    for (const [name, value] of Object.entries(item.fields)) {
      const field = type.fields.get(name);
      if (field) for (const [refType, refKey] of refKeys(field, value)) keys.push([refType, refKey, true]);
    }
    return keys;
  }
  if ('edge' in item) {
    const { type, edge } = edgeOf(plan, item, fail);
    return [
      [type.name, item.from, true],
      [edge.to, item.to, true],
    ];
  }
  if (plan.principal === undefined) throw fail('the schema declares no principal, so it has no logins');
  return [[plan.principal, item.login, true]];
}

function edgeOf(plan: DataPlan, item: EdgeLine, fail: (problem: string) => Error) {
  const [typeName, edgeName] = item.edge.split('.') as [string, string];
  const type = plan.types.get(typeName);
  if (type === undefined) throw fail(`the schema has no type "${typeName}"`);
  const edge = type.edges.get(edgeName);
  if (edge === undefined) throw fail(`the type ${typeName} has no edge "${edgeName}"`);
  return { type, edge };
}

/** The keys a line names that neither the store nor an earlier line holds. */
async function missingKeys(store: Store, plan: DataPlan, lines: DataLine[]): Promise<Array<[string, string]>> {
  const known = await lookUpKeys(store, plan, lines);
  return lines.flatMap((line) => keysOfLine(plan, line).filter(([type, key, must]) => must && !known.has(keyId(type, key))).map(([type, key]) => [type, key] as [string, string]));
}

/** One key-table read per type named by the lines. */
async function lookUpKeys(store: Store, plan: DataPlan, lines: DataLine[]): Promise<Map<string, ObjectId>> {
  const byType = new Map<string, Set<string>>();
  for (const line of lines) {
    for (const [type, key] of keysOfLine(plan, line)) {
      let keys = byType.get(type);
      if (keys === undefined) byType.set(type, (keys = new Set()));
      keys.add(key);
    }
  }
  const known = new Map<string, ObjectId>();
  for (const [type, keys] of byType) {
    const ids = await store.findDeclaredIds(plan.types.get(type)!.storage, [...keys]);
    for (const [key, id] of ids) known.set(keyId(type, key), id);
  }
  return known;
}

/**
 * Imports lines in as few transactions as keys allow: a line naming a node that a line of the same
 * transaction creates starts the next one (the node then has its id). Answers the lines that name
 * keys nobody has defined yet.
 */
async function importChunk(store: Store, plan: DataPlan, chunk: DataLine[], options: ImportOptions, summary: ImportSummary): Promise<DataLine[]> {
  await checkChunk(store, plan, chunk, options);
  const parked: DataLine[] = [];
  let pending = chunk;
  while (pending.length > 0) {
    const known = await lookUpKeys(store, plan, pending);
    const existing = await store.getObjects([...new Set(pending.flatMap((line) => ('node' in line.item ? [known.get(keyId(line.item.node, line.item.key))] : [])).filter((id): id is number => id !== undefined))]);
    const batch = new Batch(plan, known, existing, options);
    let taken = 0;
    for (const line of pending) {
      const keys = keysOfLine(plan, line);
      if (keys.some(([type, key, must]) => batch.holds(type, key, !must))) break;
      taken += 1;
      if (keys.some(([type, key, must]) => must && !known.has(keyId(type, key)))) {
        parked.push(line);
        continue;
      }
      await batch.add(line);
    }
    const ops = batch.ops();
    if (ops.length > 0) await store.write(ops);
    batch.count(summary);
    pending = pending.slice(taken);
  }
  return parked;
}

/**
 * Checks every line of a chunk before any of it is written, nodes the chunk creates standing in
 * under provisional ids: a bad line then leaves nothing of its chunk behind, even when the chunk
 * goes to the store in more than one transaction.
 */
async function checkChunk(store: Store, plan: DataPlan, chunk: DataLine[], options: ImportOptions): Promise<void> {
  const known = await lookUpKeys(store, plan, chunk);
  const existing = await store.getObjects([...new Set(chunk.flatMap((line) => ('node' in line.item ? [known.get(keyId(line.item.node, line.item.key))] : [])).filter((id): id is number => id !== undefined))]);
  const batch = new Batch(plan, known, existing, options, true);
  for (const line of chunk) {
    if (keysOfLine(plan, line).some(([type, key, must]) => must && !known.has(keyId(type, key)))) continue;
    await batch.add(line);
  }
}

/** The write ops of one transaction, built line by line (or, provisionally, only checked). */
class Batch {
  private readonly created: WriteOp[] = [];
  private readonly keys: WriteOp[] = [];
  private readonly links: WriteOp[] = [];
  private readonly rest: WriteOp[] = [];
  private readonly createdKeys = new Set<string>();
  private readonly updatedKeys = new Set<string>();
  private readonly tally: ImportSummary = { created: 0, updated: 0, edges: 0, derivedEdges: 0, logins: 0 };

  constructor(
    private readonly plan: DataPlan,
    private readonly known: Map<string, ObjectId>,
    private readonly existing: Map<ObjectId, StoredObject>,
    private readonly options: ImportOptions,
    /** Only check: created nodes get provisional (negative) ids that later lines may name. */
    private readonly provisional = false,
  ) {}

  /**
   * Whether a line needing this key must wait for the next transaction: the key names a node this
   * one creates (it has no id yet), or, for a node line's own key (`own`), a node this one changes
   * already (a node is written once per transaction).
   */
  holds(type: string, key: string, own: boolean): boolean {
    return this.createdKeys.has(keyId(type, key)) || (own && this.updatedKeys.has(keyId(type, key)));
  }

  async add(line: DataLine): Promise<void> {
    const fail = (problem: string) => new DataLineError(line.source, line.number, problem);
    const item = line.item;
    if ('node' in item) this.addNode(item, fail);
    else if ('edge' in item) this.addEdge(item, fail);
    else await this.addLogin(item, fail);
  }

  ops(): WriteOp[] {
    // Creations first, so that keys and lists can name them by their place in the batch; then
    // links together, which a store writes as one stretch. Each node is written once per
    // transaction, so no op of one line undoes another's.
    return [...this.created, ...this.keys, ...this.links, ...this.rest];
  }

  count(summary: ImportSummary): void {
    for (const name of Object.keys(summary) as Array<keyof ImportSummary>) summary[name] += this.tally[name];
  }

  private id(type: string, key: string): ObjectId {
    return this.known.get(keyId(type, key))!;
  }

  private addNode(item: NodeLine, fail: (problem: string) => Error): void {
    const type = this.plan.types.get(item.node)!;
    const given: Record<string, unknown> = {};
    let owner: ObjectId | null = null;
    for (const [name, value] of Object.entries(item.fields)) {
      const field = type.fields.get(name);
      if (field === undefined) throw fail(`the type ${type.name} has no field "${name}" that can be imported`);
      if (value === null) continue;
      // Refs hold keys; the type's checks see the ids they stand for.
      const resolved = field.refTo === undefined ? value : Array.isArray(value) ? value.map((key) => this.id(field.refTo!, String(key))) : this.id(field.refTo, String(value));
      if (name === type.ownerField) owner = resolved as ObjectId;
      else given[name] = resolved;
    }
    if (type.keyField !== undefined && type.fields.has(type.keyField)) {
      const held = given[type.keyField];
      if (held === undefined) given[type.keyField] = item.key;
      else if (String(held) !== item.key) throw fail(`the key "${item.key}" differs from its ${type.keyField} "${String(held)}"`);
    }
    const id = this.known.get(keyId(type.name, item.key));
    const current = id === undefined ? undefined : this.existing.get(id);
    if (current === undefined) this.createNode(type, item, this.checked(type, given, undefined, fail), owner, fail);
    else {
      this.updateNode(type, current, given, owner, fail);
      this.updatedKeys.add(keyId(type.name, item.key));
    }
  }

  /** The values as the type stores them, checked as a write through the API checks them (permissions aside). */
  private checked(type: TypePlan, given: Record<string, unknown>, current: Record<string, unknown> | undefined, fail: (problem: string) => Error): Record<string, unknown> {
    try {
      return type.def.checkData!(given, current);
    } catch (error) {
      if (error instanceof GraphError) throw fail(error.message.replace(/^\(#\d+\) /, ''));
      throw error;
    }
  }

  private createNode(type: TypePlan, item: NodeLine, data: Record<string, unknown>, owner: ObjectId | null, fail: (problem: string) => Error): void {
    const createdTime = item.created_time === undefined ? this.options.now : parseTime(item.created_time);
    if (createdTime === undefined) throw fail('created_time must be an ISO-8601 time or unix seconds');
    const ref: Ref = { ref: this.created.length };
    this.created.push({ op: 'createObject', object: { type: type.storage, owner, createdTime, data } });
    if (this.provisional) {
      const id = -this.created.length;
      this.known.set(keyId(type.name, item.key), id);
      this.existing.set(id, { id, type: type.storage, owner, createdTime, updatedTime: createdTime, data });
    }
    this.keys.push({ op: 'setDeclaredKey', type: type.storage, key: item.key, id: ref });
    this.createdKeys.add(keyId(type.name, item.key));
    for (const list of type.derivedLists) {
      const holder = list.field === type.ownerField ? owner : data[type.fields.get(list.field)?.storage ?? list.field];
      const time = list.timeField === undefined ? createdTime : data[type.fields.get(list.timeField)?.storage ?? list.timeField];
      if (typeof holder === 'number') this.links.push({ op: 'addAssoc', type: list.storage, id1: holder, id2: ref, time: typeof time === 'number' ? time : createdTime });
    }
    this.rest.push(...counterOps(type.def.counters, { owner, data }, 1));
    this.tally.created += 1;
  }

  private updateNode(type: TypePlan, current: StoredObject, given: Record<string, unknown>, owner: ObjectId | null, fail: (problem: string) => Error): void {
    if (type.ownerField !== undefined && owner !== null && owner !== current.owner) throw fail(`the ${type.ownerField} of an imported ${type.name} cannot change`);
    let changes: Record<string, unknown>;
    if (this.options.replace) {
      // The line is the whole node: checked as a new one, the stored fields it leaves out removed.
      changes = this.checked(type, given, undefined, fail);
      for (const field of type.fields.values()) if (field.name !== type.ownerField && !(field.storage in changes)) changes[field.storage] = null;
    } else changes = this.checked(type, given, current.data, fail);
    const after: Record<string, unknown> = { ...current.data };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete after[key];
      else after[key] = value;
    }
    this.rest.push({ op: 'updateObject', id: current.id, data: changes, updatedTime: this.options.now });
    this.rest.push(...counterChangeOps(type.def.counters, current, changes));
    if (this.provisional) this.existing.set(current.id, { ...current, data: after });
    // A list kept from a ref field follows the field to its new node.
    for (const list of type.derivedLists) {
      if (list.field === type.ownerField) continue;
      const storage = type.fields.get(list.field)?.storage ?? list.field;
      const before = current.data[storage];
      const now = after[storage];
      if (before === now) continue;
      if (typeof before === 'number') this.rest.push({ op: 'removeAssoc', type: list.storage, id1: before, id2: current.id });
      if (typeof now === 'number') this.links.push({ op: 'addAssoc', type: list.storage, id1: now, id2: current.id, time: current.createdTime });
    }
    this.tally.updated += 1;
  }

  private addEdge(item: EdgeLine, fail: (problem: string) => Error): void {
    const { type, edge } = edgeOf(this.plan, item, fail);
    if (edge.derived) {
      this.tally.derivedEdges += 1;
      return;
    }
    const time = item.time === undefined ? this.options.now : parseTime(item.time);
    if (time === undefined) throw fail('time must be an ISO-8601 time or unix seconds');
    const from = this.id(type.name, item.from);
    const to = this.id(edge.to, item.to);
    this.links.push({ op: 'addAssoc', type: edge.storage, id1: from, id2: to, time });
    if (edge.inverseStorage !== undefined) this.links.push({ op: 'addAssoc', type: edge.inverseStorage, id1: to, id2: from, time });
    this.tally.edges += 1;
  }

  private async addLogin(item: LoginLine, fail: (problem: string) => Error): Promise<void> {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(item.email)) throw fail('email must be an email address');
    if (item.password.length < 8) throw fail('the password must be at least 8 characters long');
    const userId = this.id(this.plan.principal!, item.login);
    if (this.provisional) return;
    this.rest.push({ op: 'setCredentials', userId, email: item.email, passwordHash: await hashPassword(item.password) });
    this.tally.logins += 1;
  }
}
