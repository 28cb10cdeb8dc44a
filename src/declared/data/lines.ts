/**
 * The lines of the own-data format (`loom-data`): a header naming the schema, then `node`,
 * `edge` and `login` lines keyed by the team's own keys, then an optional closing line with the
 * number of lines, so a cut-off file is recognised.
 */

export const DATA_FORMAT = 'loom-data';
export const DATA_FORMAT_VERSION = 1;

export interface DataHeader {
  format: typeof DATA_FORMAT;
  version: typeof DATA_FORMAT_VERSION;
  schema: string;
  schema_version: number;
}

export interface NodeLine {
  node: string;
  key: string;
  /** ISO-8601 or unix seconds; the import time when absent. */
  created_time?: string | number;
  fields: Record<string, unknown>;
}

export interface EdgeLine {
  /** `<type>.<edge>`. */
  edge: string;
  from: string;
  to: string;
  time?: string | number;
}

export interface LoginLine {
  /** Key of a node of the principal type. */
  login: string;
  email: string;
  password: string;
}

type DataItem = NodeLine | EdgeLine | LoginLine;

/** An item with where it came from, for messages. */
export interface DataLine {
  /** File name the line was read from (`data.ndjson`, `reviews.csv`). */
  source: string;
  number: number;
  item: DataItem;
}

/** A line Loom cannot import; the message names the file and line. */
export class DataLineError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${source} line ${line}: ${problem}`);
    this.name = 'DataLineError';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isKey = (value: unknown): value is string | number =>
  (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isSafeInteger(value));
const isTime = (value: unknown) => value === undefined || typeof value === 'string' || typeof value === 'number';

export type ParsedLine = { kind: 'header'; header: DataHeader } | { kind: 'end'; lines: number } | { kind: 'item'; item: DataItem };

/** A line of NDJSON as one of the format's lines, or the problem with it. */
export function parseDataLine(text: string): ParsedLine | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not a JSON object' };
  }
  if (!isObject(value)) return { problem: 'not a JSON object' };
  if (value.format !== undefined) {
    if (value.format !== DATA_FORMAT) return { problem: `the file is in the format "${String(value.format)}", not "${DATA_FORMAT}"` };
    if (value.version !== DATA_FORMAT_VERSION) return { problem: `the file is format version ${String(value.version)}; this Loom reads version ${DATA_FORMAT_VERSION}` };
    if (typeof value.schema !== 'string') return { problem: 'the header names no schema' };
    return { kind: 'header', header: value as unknown as DataHeader };
  }
  if (value.end === true) {
    if (!Number.isSafeInteger(value.lines)) return { problem: 'the closing line has no number of lines' };
    return { kind: 'end', lines: value.lines as number };
  }
  if (value.node !== undefined) {
    if (typeof value.node !== 'string') return { problem: '"node" must name a type' };
    if (!isKey(value.key)) return { problem: 'a node line needs a "key" (a string)' };
    if (value.fields !== undefined && !isObject(value.fields)) return { problem: '"fields" must be an object' };
    if (!isTime(value.created_time)) return { problem: '"created_time" must be an ISO-8601 time or unix seconds' };
    return { kind: 'item', item: { node: value.node, key: String(value.key), created_time: value.created_time, fields: (value.fields ?? {}) } };
  }
  if (value.edge !== undefined) {
    if (typeof value.edge !== 'string' || !value.edge.includes('.')) return { problem: '"edge" must name an edge as type.edge' };
    if (!isKey(value.from) || !isKey(value.to)) return { problem: 'an edge line needs the keys "from" and "to"' };
    if (!isTime(value.time)) return { problem: '"time" must be an ISO-8601 time or unix seconds' };
    return { kind: 'item', item: { edge: value.edge, from: String(value.from), to: String(value.to), time: value.time } };
  }
  if (value.login !== undefined) {
    if (!isKey(value.login)) return { problem: '"login" must be the key of a principal' };
    if (typeof value.email !== 'string' || typeof value.password !== 'string') return { problem: 'a login line needs "email" and "password"' };
    return { kind: 'item', item: { login: String(value.login), email: value.email, password: value.password } };
  }
  return { problem: 'not a node, edge or login line' };
}
