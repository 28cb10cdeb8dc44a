import { envDb } from '../config.js';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import { isEmptyStore } from '../store/records.js';
import { DEFAULT_MAX_PARKED } from '../declared/data/import.js';
import { importGraph } from '../seed/import-graph.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';
import { importDataFiles, requestFiles, summaryLine } from './import-data.js';
import { defaultReportPath, RejectedLines } from './rejected-lines.js';

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
