/**
 * The file `loom export` writes and `loom import` reads: newline-delimited JSON. A header line
 * names the format and how many records of each kind follow, then one store record per line,
 * kind after kind, then a closing line with the total, so a cut-off file is recognised.
 */
import { RECORD_KINDS, RECORD_TABLES, type RecordColumn, type RecordKind } from './records.js';

const FORMAT = 'loom-graph';
const FORMAT_VERSION = 1;

interface GraphFileHeader {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  records: Partial<Record<RecordKind, number>>;
}

export interface GraphFileEnd {
  end: true;
  records: number;
}

export function headerLine(records: Partial<Record<RecordKind, number>>): string {
  const header: GraphFileHeader = { format: FORMAT, version: FORMAT_VERSION, records };
  return `${JSON.stringify(header)}\n`;
}

export function endLine(records: number): string {
  const end: GraphFileEnd = { end: true, records };
  return `${JSON.stringify(end)}\n`;
}

/** The header's total, or an error message when the line is not a header this Loom reads. */
export function readHeader(line: string): { total: number } | { error: string } {
  let header: Partial<GraphFileHeader>;
  try {
    header = JSON.parse(line) as Partial<GraphFileHeader>;
  } catch {
    return { error: 'the input does not start with a Loom graph header; it is not the output of "loom export"' };
  }
  if (header?.format !== FORMAT) return { error: 'the input is not the output of "loom export"' };
  if (header.version !== FORMAT_VERSION) {
    return { error: `the input is format version ${String(header.version)}; this Loom reads version ${FORMAT_VERSION}` };
  }
  const counts = Object.values(header.records ?? {});
  if (!counts.every((count) => Number.isSafeInteger(count) && count >= 0)) return { error: 'the header has invalid record counts' };
  return { total: counts.reduce((sum, count) => sum + count, 0) };
}

export function isEndLine(value: unknown): value is GraphFileEnd {
  return typeof value === 'object' && value !== null && (value as GraphFileEnd).end === true;
}

const TYPE_NAMES: Readonly<Record<RecordColumn['type'], string>> = {
  bigint: 'a whole number',
  text: 'a string',
  boolean: 'true or false',
  json: 'a JSON object or array',
};

/**
 * What keeps `value` from being a store record, or undefined when it is one: a record of a known
 * kind whose every field has its column's type, and is present unless the column may be null
 * (a store would otherwise fill a missing key itself, SQLite by inventing an id).
 */
export function recordProblem(value: unknown): string | undefined {
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const kind = fields.record as RecordKind;
  if (!RECORD_KINDS.includes(kind)) return 'not a record Loom knows';
  const columns: readonly Pick<RecordColumn, 'field' | 'type' | 'nullable' | 'absent'>[] =
    kind === 'idSequence' ? [{ field: 'last', type: 'bigint', nullable: false }] : RECORD_TABLES[kind].columns;
  for (const { field, type, nullable, absent } of columns) {
    const item = fields[field];
    if (item === null || item === undefined) {
      if (nullable || (item === undefined && absent !== undefined)) continue;
      return `the ${kind} record has no "${field}"`;
    }
    if (!hasType(item, type)) return `the ${kind} record's "${field}" is not ${TYPE_NAMES[type]}`;
  }
  return undefined;
}

function hasType(item: unknown, type: RecordColumn['type']): boolean {
  switch (type) {
    case 'bigint':
      return Number.isSafeInteger(item);
    case 'text':
      return typeof item === 'string';
    case 'boolean':
      return typeof item === 'boolean';
    case 'json':
      return typeof item === 'object';
  }
}
