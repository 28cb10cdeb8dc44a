import { statSync } from 'node:fs';
import { Clock } from '../clock/clock.js';
import type { Store } from '../store/store.js';
import { appliedDataPlan, NoAppliedSchemaError } from '../declared/data/applied-plan.js';
import { BATCH_LINES, importData, type ImportSummary } from '../declared/data/import.js';
import { DataLineError, type DataLine } from '../declared/data/lines.js';
import { csvEdgeLines, csvNodeLines, ndjsonLines, type RejectLine } from '../declared/data/read.js';
import { describeSystemError } from '../errors.js';
import { UsageError } from './args.js';
import { createProgress } from '../seed/progress.js';

export interface DataImportRequest {
  data?: string;
  /** `type=file.csv` */
  nodes: string[];
  /** `type.edge=file.csv` */
  edges: string[];
  replace: boolean;
  maxParked?: number;
  /** Given, bad lines are handed here and left out rather than stopping the import. */
  reject?: RejectLine;
}

/** The files of a request in the order they load: the NDJSON file, then node CSVs, then edge CSVs. */
export function requestFiles(request: Pick<DataImportRequest, 'data' | 'nodes' | 'edges'>): string[] {
  return [...(request.data === undefined ? [] : [request.data]), ...[...request.nodes, ...request.edges].map((value) => value.slice(value.indexOf('=') + 1))];
}

/** `name=path` of --nodes and --edges. */
function namedFile(option: string, value: string): [string, string] {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) throw new UsageError(`--${option} takes NAME=FILE.csv, not "${value}"`);
  return [value.slice(0, at), value.slice(at + 1)];
}

/**
 * Imports own data (NDJSON, then CSV node files, then CSV edge files) into a database whose
 * schema was applied, reporting progress with rate and time left.
 */
export async function importDataFiles(store: Store, request: DataImportRequest): Promise<ImportSummary> {
  let plan;
  try {
    plan = await appliedDataPlan(store);
  } catch (error) {
    if (error instanceof NoAppliedSchemaError) throw new UsageError(error.message, { help: false });
    throw error;
  }
  const files: Array<{ path: string; lines: (onBytes: (bytes: number) => void) => AsyncGenerator<DataLine> }> = [];
  if (request.data !== undefined) files.push({ path: request.data, lines: (onBytes) => ndjsonLines(request.data!, plan, onBytes, request.reject) });
  for (const value of request.nodes) {
    const [name, path] = namedFile('nodes', value);
    const type = plan.types.get(name);
    if (type === undefined) throw new UsageError(`--nodes names the type "${name}", which the schema does not declare`);
    files.push({ path, lines: (onBytes) => csvNodeLines(path, type, onBytes, request.reject) });
  }
  for (const value of request.edges) {
    const [name, path] = namedFile('edges', value);
    const [typeName, edgeName] = name.split('.');
    if (plan.types.get(typeName ?? '')?.edges.get(edgeName ?? '') === undefined) throw new UsageError(`--edges names "${name}", which is not an edge of the schema (type.edge)`);
    files.push({ path, lines: (onBytes) => csvEdgeLines(path, name, onBytes, request.reject) });
  }
  const sizes = files.map(({ path }) => {
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${describeSystemError(error)}`, { help: false });
    }
    if (stats.isDirectory()) throw new UsageError(`cannot read ${path}: it is a folder, not a file`, { help: false });
    return stats.size;
  });
  const totalBytes = sizes.reduce((sum, size) => sum + size, 0);
  let bytesBefore = 0;
  let bytes = 0;
  const progress = createProgress('Importing lines', process.stderr);
  async function* all(): AsyncGenerator<DataLine> {
    for (const [index, file] of files.entries()) {
      yield* file.lines((read) => (bytes = bytesBefore + read));
      bytesBefore += sizes[index]!;
    }
  }
  try {
    const summary = await importData(store, plan, all(), {
      replace: request.replace,
      maxParked: request.maxParked,
      reject: request.reject,
      now: Clock.real().now(),
      // Lines in all the files, estimated from the bytes read so far.
      onProgress: (lines) => progress.update(lines, bytes > 0 ? Math.max(lines, Math.round((lines * totalBytes) / bytes)) : lines),
    });
    progress.finish();
    return summary;
  } catch (error) {
    progress.finish();
    if (error instanceof DataLineError) throw new UsageError(`${error.message} (nothing of its batch of ${BATCH_LINES.toLocaleString('en-US')} lines was written; the batches before it were)`, { help: false });
    throw error;
  }
}

export function summaryLine(summary: ImportSummary): string {
  const parts = [
    `${summary.created.toLocaleString('en-US')} nodes created`,
    `${summary.updated.toLocaleString('en-US')} updated`,
    `${summary.edges.toLocaleString('en-US')} edges`,
    `${summary.logins.toLocaleString('en-US')} logins`,
  ];
  if (summary.derivedEdges > 0) parts.push(`${summary.derivedEdges.toLocaleString('en-US')} lines of derived edges skipped`);
  return parts.join(', ');
}
