import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { isEndLine, readHeader, recordProblem } from '../store/graph-file.js';
import type { StoreRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { createProgress } from './progress.js';
import { SeedError } from './seed-error.js';

/** Records per transaction. */
const BATCH = 20_000;

/**
 * Loads the records of an export, a batch per transaction, reading the input as it arrives; the
 * store builds its secondary indexes once at the end (a bulk load).
 */
export async function importGraph(store: Store, input: Readable): Promise<number> {
  let loaded = 0;
  await store.bulkLoad(async (load) => {
    loaded = await readGraph(input, load);
  });
  return loaded;
}

async function readGraph(input: Readable, load: (records: readonly StoreRecord[]) => Promise<void>): Promise<number> {
  const progress = createProgress('Importing the graph', process.stderr);
  let total: number | undefined;
  let ended = false;
  let loaded = 0;
  let batch: StoreRecord[] = [];
  const flush = async () => {
    await load(batch);
    loaded += batch.length;
    batch = [];
    progress.update(loaded, Math.max(loaded, total ?? 0));
  };
  let lineNumber = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const fail = (problem: string) => new SeedError(`line ${lineNumber}: ${problem}${partial(loaded)}`);
    if (total === undefined) {
      const header = readHeader(line);
      if ('error' in header) throw fail(header.error);
      total = header.total;
      continue;
    }
    if (ended) throw fail('there is more after the closing line');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw fail('not a JSON record');
    }
    if (isEndLine(value)) {
      if (value.records !== loaded + batch.length) throw fail(`the file announces ${value.records} records but holds ${loaded + batch.length}`);
      ended = true;
      continue;
    }
    withFreshSecret(value);
    const problem = recordProblem(value);
    if (problem !== undefined) throw fail(`${problem}: ${line.slice(0, 120)}`);
    batch.push(value as StoreRecord);
    if (batch.length >= BATCH) await flush();
  }
  if (total === undefined) throw new SeedError('the input is empty; give the output of "loom export" on standard input');
  if (!ended) throw new SeedError(`the input ends before the export's closing line, so it was cut short${partial(loaded)}`);
  await flush();
  progress.finish();
  return loaded;
}

/** An app exported without its secret (no --secrets) gets a fresh one, as a new app would. */
function withFreshSecret(value: unknown): void {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (record.record === 'app' && record.secret === undefined) record.secret = randomBytes(32).toString('hex');
}

function partial(records: number): string {
  return records > 0 ? ` (${records} records were loaded already; start again with a new database)` : '';
}
