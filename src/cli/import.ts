import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { envDb } from '../config.js';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import { isEmptyStore, type StoreRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { DEFAULT_MAX_PARKED } from '../declared/data/import.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';
import { importDataFiles, requestFiles, summaryLine } from './import-data.js';
import { defaultReportPath, RejectedLines } from './rejected-lines.js';
import { isEndLine, readHeader, recordProblem } from './graph-file.js';
import { createProgress } from './progress.js';

export const importHelp = `Usage: loom import [--db PATH|URL] < graph.ndjson
       loom import --data FILE.ndjson [--nodes TYPE=FILE.csv]... [--edges TYPE.EDGE=FILE.csv]... [--replace]
                   [--skip-invalid [--report PATH]] [--db PATH|URL]

Loads a graph written by "loom export" into an empty database, SQLite or PostgreSQL, keeping
every id, so user ids, post ids and (when exported with --tokens) access tokens stay valid.
An app exported without its secret gets a fresh one ("loom app reset-secret ID" shows a new
one; export with --secrets to keep them), and a file without the server's keys leaves the copy
to make fresh ones.

With --data, --nodes or --edges, loads your own data instead, keyed by your own keys, into a
database whose schema "loom schema apply" set up (the format: docs/own-data.md). A node whose
key was imported before is updated in place; lists Loom derives and counts are rebuilt, never
read from the file. A bad line is named with its file and number, and nothing of its batch
of 1,000 lines is written. With --skip-invalid the bad lines are left out instead and the
others imported; each left out is listed with its file, number and reason in the report
(FILE.rejected.ndjson beside the first file, or --report PATH), and the exit status is 1.

Options:
  --db PATH|URL          SQLite file or postgres:// URL to fill (default: $LOOM_DB or ./loom.db)
  --data FILE            own data as NDJSON (node, edge and login lines)
  --nodes TYPE=FILE      nodes of one type as CSV: a key column and field columns (repeatable)
  --edges TYPE.EDGE=FILE one edge as CSV: from, to and time columns (repeatable)
  --replace              a node imported before gets exactly the new line's fields
  --max-parked N         lines that may wait for a key defined later in the file (default 100000)
  --skip-invalid         leave bad lines out, import the others, list the bad ones in a report
  --report PATH          where --skip-invalid writes its report (default: FILE.rejected.ndjson)
  -h, --help             show this help
`;

/** Records per transaction. */
const BATCH = 20_000;

export async function importCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    db: { type: 'string' },
    data: { type: 'string' },
    nodes: { type: 'string', multiple: true },
    edges: { type: 'string', multiple: true },
    replace: { type: 'boolean' },
    'max-parked': { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    report: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(importHelp);
  const db = values.db ?? envDb();
  const own = values.data !== undefined || values.nodes !== undefined || values.edges !== undefined;
  if (!own && (values.replace || values['max-parked'] !== undefined || values['skip-invalid'])) {
    throw new UsageError('--replace, --max-parked and --skip-invalid go with --data, --nodes or --edges');
  }
  if (values.report !== undefined && !values['skip-invalid']) throw new UsageError('--report goes with --skip-invalid');
  const store = openStore(db);
  try {
    if (own) {
      const files = { data: values.data, nodes: values.nodes ?? [], edges: values.edges ?? [] };
      const rejected = values['skip-invalid'] ? new RejectedLines(values.report ?? defaultReportPath(requestFiles(files)[0]!)) : undefined;
      let summary;
      try {
        summary = await importDataFiles(store, {
          ...files,
          replace: values.replace ?? false,
          maxParked: positiveInteger('max-parked', values['max-parked'], DEFAULT_MAX_PARKED),
          reject: rejected?.add,
        });
      } finally {
        rejected?.close();
      }
      process.stdout.write(`Imported into ${redactPassword(db)}: ${summaryLine(summary)}\n`);
      if (rejected) process.stdout.write(`${rejected.count.toLocaleString('en-US')} lines left out, listed in ${rejected.path}\n`);
      if (rejected && rejected.count > 0) throw new UsageError(`${rejected.count.toLocaleString('en-US')} lines were not imported (see ${rejected.path}); the others were`, { help: false, exitCode: 1 });
      return;
    }
    if (!(await isEmptyStore(store))) throw new UsageError(`${redactPassword(db)} is not empty; import into a new database`);
    const imported = await importGraph(store, process.stdin);
    process.stdout.write(`Imported ${imported.toLocaleString('en-US')} records into ${redactPassword(db)}\n`);
  } finally {
    await store.close();
  }
}

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
    const fail = (problem: string) => new UsageError(`line ${lineNumber}: ${problem}${partial(loaded)}`);
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
  if (total === undefined) throw new UsageError('the input is empty; give the output of "loom export" on standard input');
  if (!ended) throw new UsageError(`the input ends before the export's closing line, so it was cut short${partial(loaded)}`);
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
