/**
 * Streams of own-data lines from files: NDJSON (the format's own), and CSV, one file per type or
 * edge with a header row naming the columns (`key`, `created_time` and field names for nodes;
 * `from`, `to`, `time` for edges), lists split on `;`, `json` columns holding JSON text.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { DataLineError, parseDataLine, type DataHeader, type DataLine } from './lines.js';
import type { DataPlan, TypePlan } from './plan.js';

/** Lines of a file as they arrive, with the number of bytes read so far. */
async function* textLines(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<[number, string]> {
  let number = 0;
  let bytes = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    number += 1;
    bytes += Buffer.byteLength(text) + 1;
    onBytes?.(bytes);
    yield [number, text];
  }
}

/**
 * A line that cannot be read as an item: handed to `reject` when given (the file goes on), thrown
 * otherwise. Problems of the file as a whole (its header, its end) are always thrown.
 */
export type RejectLine = (problem: DataLineError) => void;

function rejectOrThrow(reject: RejectLine | undefined, problem: DataLineError): void {
  if (!reject) throw problem;
  reject(problem);
}

/** The items of an NDJSON file; the header, when present, must name the applied schema. */
export async function* ndjsonLines(path: string, plan: DataPlan, onBytes?: (bytes: number) => void, reject?: RejectLine): AsyncGenerator<DataLine> {
  const source = basename(path);
  let ended = false;
  let header: DataHeader | undefined;
  for await (const [number, text] of textLines(path, onBytes)) {
    if (text.trim() === '') continue;
    const fail = (problem: string) => new DataLineError(source, number, problem);
    if (ended) throw fail('there is more after the closing line');
    const parsed = parseDataLine(text);
    if ('problem' in parsed) {
      rejectOrThrow(reject, fail(parsed.problem));
      continue;
    }
    if (parsed.kind === 'header') {
      if (number !== 1 || header !== undefined) throw fail('a header may only be the first line');
      header = parsed.header;
      if (header.schema !== plan.schema) throw fail(`the file holds data of the schema "${header.schema}", but the database serves "${plan.schema}"`);
    } else if (parsed.kind === 'end') {
      if (parsed.lines !== number) throw fail(`the closing line announces ${parsed.lines} lines but it is line ${number}`);
      ended = true;
    } else yield { source, number, item: parsed.item };
  }
}

/** The cells of one CSV record (RFC 4180 quoting); a quoted cell may hold line breaks. */
async function* csvRecords(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<[number, string[]]> {
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let startLine = 0;
  for await (const [number, text] of textLines(path, onBytes)) {
    if (!quoted) startLine = number;
    else cell += '\n';
    for (let i = 0; i < text.length; i += 1) {
      const char = text[i]!;
      if (quoted) {
        if (char !== '"') cell += char;
        else if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        }
        else quoted = false;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        cells.push(cell);
        cell = '';
      }
      else cell += char;
    }
    if (quoted) continue;
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) yield [startLine, cells];
    cells = [];
    cell = '';
  }
  if (quoted) throw new DataLineError(basename(path), startLine, 'a quoted cell is never closed');
}

/** A CSV cell as the value of a field: numbers, booleans and JSON parsed, lists split on `;`. */
function cellValue(type: string, cell: string): unknown {
  const list = /^list<(.+)>$/.exec(type);
  if (list !== null) return cell === '' ? [] : cell.split(';').map((item) => cellValue(list[1]!, item));
  switch (type) {
    case 'int':
    case 'float':
      return cell.trim() === '' || Number.isNaN(Number(cell)) ? cell : Number(cell);
    case 'bool':
      return cell === 'true' ? true : cell === 'false' ? false : cell;
    case 'datetime':
      return /^\d+$/.test(cell) ? Number(cell) : cell;
    case 'json':
      try {
        return JSON.parse(cell) as unknown;
      } catch {
        return cell;
      }
    default:
      return cell;
  }
}

/** A row of a CSV file after its header: its cells, and the columns the header named. */
interface CsvRow {
  source: string;
  number: number;
  columns: readonly string[];
  cells: readonly string[];
  fail: (problem: string) => DataLineError;
}

/**
 * The rows of a CSV file below its header, which `checkHeader` refuses by throwing; a row with
 * more or fewer cells than the header has columns is rejected (or fails the file).
 */
async function* csvRows(
  path: string,
  checkHeader: (columns: readonly string[], fail: CsvRow['fail']) => void,
  onBytes?: (bytes: number) => void,
  reject?: RejectLine,
): AsyncGenerator<CsvRow> {
  const source = basename(path);
  let columns: string[] | undefined;
  for await (const [number, cells] of csvRecords(path, onBytes)) {
    const fail = (problem: string) => new DataLineError(source, number, problem);
    if (columns === undefined) {
      columns = cells.map((cell) => cell.trim());
      checkHeader(columns, fail);
    } else if (cells.length !== columns.length) {
      rejectOrThrow(reject, fail(`the row has ${cells.length} cells; the header names ${columns.length} columns`));
    } else {
      yield { source, number, columns, cells, fail };
    }
  }
}

/** Node lines of a type from a CSV file; an empty cell leaves its field out. */
export async function* csvNodeLines(path: string, type: TypePlan, onBytes?: (bytes: number) => void, reject?: RejectLine): AsyncGenerator<DataLine> {
  const checkHeader = (columns: readonly string[], fail: CsvRow['fail']) => {
    if (!columns.includes('key')) throw fail('the header row has no "key" column');
    const unknown = columns.find((column) => column !== 'key' && column !== 'created_time' && !type.fields.has(column));
    if (unknown !== undefined) throw fail(`the type ${type.name} has no field "${unknown}" that can be imported`);
  };
  for await (const { source, number, columns, cells, fail } of csvRows(path, checkHeader, onBytes, reject)) {
    const fields: Record<string, unknown> = {};
    let key = '';
    let created: string | number | undefined;
    columns.forEach((column, index) => {
      const cell = cells[index]!;
      if (column === 'key') key = cell;
      else if (column === 'created_time') created = cell === '' ? undefined : (cellValue('datetime', cell) as string | number);
      else if (cell !== '') fields[column] = cellValue(type.fields.get(column)!.decl.type ?? 'json', cell);
    });
    if (key === '') {
      rejectOrThrow(reject, fail('the row has no key'));
      continue;
    }
    yield { source, number, item: { node: type.name, key, created_time: created, fields } };
  }
}

/** Edge lines of one edge (`type.edge`) from a CSV file with the columns from, to and time. */
export async function* csvEdgeLines(path: string, edge: string, onBytes?: (bytes: number) => void, reject?: RejectLine): AsyncGenerator<DataLine> {
  const checkHeader = (columns: readonly string[], fail: CsvRow['fail']) => {
    if (!columns.includes('from') || !columns.includes('to')) throw fail('the header row needs the columns "from" and "to"');
    const unknown = columns.find((column) => !['from', 'to', 'time'].includes(column));
    if (unknown !== undefined) throw fail(`an edge file has no column "${unknown}"`);
  };
  for await (const { source, number, columns, cells } of csvRows(path, checkHeader, onBytes, reject)) {
    const cell = (name: string) => cells[columns.indexOf(name)];
    const time = cell('time');
    yield { source, number, item: { edge, from: cell('from')!, to: cell('to')!, time: time === undefined || time === '' ? undefined : (cellValue('datetime', time) as string | number) } };
  }
}
