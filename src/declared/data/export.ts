/**
 * Writes a store's own data back in the import format: node lines keyed by the keys they were
 * imported with (a node made through the API, which has none, by its id), the edges a line may
 * write (each inverse pair once, derived lists never), so a fixture can be shared, diffed and
 * imported again. Sign-in passwords are kept only as hashes and are not written.
 */
import type { Store } from '../../store/store.js';
import type { Association, StoredObject } from '../../store/graph-store.js';
import { recordKey, type RecordKey, type StoreRecord } from '../../store/records.js';
import { DATA_FORMAT, DATA_FORMAT_VERSION, type DataHeader, type EdgeLine, type NodeLine } from './lines.js';
import type { DataPlan, EdgePlan, TypePlan } from './plan.js';

/** Records per scan. */
const PAGE = 1000;

async function* scan(store: Store, kind: 'object' | 'association' | 'declaredKey'): AsyncGenerator<StoreRecord> {
  let after: RecordKey | undefined;
  for (;;) {
    const records = await store.scanRecords(kind, after, PAGE);
    yield* records;
    if (records.length < PAGE) return;
    after = recordKey(records[records.length - 1]!);
  }
}

const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** The lines of the export, each ending in a newline. */
export async function* exportDataLines(store: Store, plan: DataPlan): AsyncGenerator<string> {
  const keys = new Map<number, string>();
  for await (const record of scan(store, 'declaredKey')) if (record.record === 'declaredKey') keys.set(record.id, record.key);
  const keyOf = (id: number) => keys.get(id) ?? String(id);
  let lines = 1;
  const header: DataHeader = { format: DATA_FORMAT, version: DATA_FORMAT_VERSION, schema: plan.schema, schema_version: plan.version };
  yield `${JSON.stringify(header)}\n`;
  for await (const record of scan(store, 'object')) {
    if (record.record !== 'object') continue;
    const type = plan.byStorage.get(record.type);
    if (type === undefined) continue;
    lines += 1;
    yield `${JSON.stringify(nodeLine(type, record, keyOf))}\n`;
  }
  const edges = exportedEdges(plan);
  for await (const record of scan(store, 'association')) {
    if (record.record !== 'association') continue;
    const edge = edges.get(record.type);
    if (edge === undefined) continue;
    lines += 1;
    yield `${JSON.stringify(edgeLine(edge, record, keyOf))}\n`;
  }
  yield `${JSON.stringify({ end: true, lines: lines + 1 })}\n`;
}

function nodeLine(type: TypePlan, object: StoredObject, keyOf: (id: number) => string): NodeLine {
  const fields: Record<string, unknown> = {};
  for (const field of type.fields.values()) {
    const value = field.name === type.ownerField ? object.owner : object.data[field.storage];
    if (value === undefined || value === null) continue;
    if (field.refTo === undefined) fields[field.name] = value;
    else fields[field.name] = Array.isArray(value) ? value.map((id) => keyOf(id as number)) : keyOf(value as number);
  }
  return { node: type.name, key: keyOf(object.id), created_time: isoTime(object.createdTime), fields };
}

function edgeLine(edge: { name: string; plan: EdgePlan }, association: Association, keyOf: (id: number) => string): EdgeLine {
  return { edge: edge.name, from: keyOf(association.id1), to: keyOf(association.id2), time: isoTime(association.time) };
}

/** Edges by association type that an import writes from lines: derived lists left out, each inverse pair once. */
function exportedEdges(plan: DataPlan): Map<string, { name: string; plan: EdgePlan }> {
  const edges = new Map<string, { name: string; plan: EdgePlan }>();
  for (const type of plan.types.values()) {
    for (const edge of type.edges.values()) {
      if (edge.derived || (edge.inverseStorage !== undefined && edges.has(edge.inverseStorage))) continue;
      edges.set(edge.storage, { name: `${type.name}.${edge.name}`, plan: edge });
    }
  }
  return edges;
}
