import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { envDb } from '../config.js';
import { RECORD_KINDS, recordKey, TOKEN_KINDS, type RecordKey, type RecordKind } from '../store/records.js';
import type { Store } from '../store/store.js';
import { parseCommandArgs } from './args.js';
import { openExistingStore } from './existing-store.js';
import { endLine, headerLine } from './graph-file.js';
import { createProgress } from './progress.js';

export const exportHelp = `Usage: loom export [--db PATH|URL] [--tokens] > graph.ndjson

Writes the whole graph of a database to standard output, one JSON record per line: objects
with their ids, associations, counts, apps with their secrets, grants, sign-in credentials and
settings. "loom import" loads the file into another database, SQLite or PostgreSQL. Export a
database nobody writes to meanwhile, so the copy is one consistent moment.

Options:
  --db PATH|URL   SQLite file or postgres:// URL to read (default: $LOOM_DB or ./loom.db)
  --tokens        include access tokens (stored hashed), so issued tokens work on the copy,
                  and the records of revoked ones
  -h, --help      show this help
`;

/** Records per scan: large enough to stream quickly, small enough to hold nothing big in memory. */
const PAGE = 1000;

export async function exportCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { db: { type: 'string' }, tokens: { type: 'boolean' } });
  if (values.help) return void process.stdout.write(exportHelp);
  const store = openExistingStore(values.db ?? envDb());
  try {
    await exportGraph(store, process.stdout, { tokens: values.tokens ?? false });
  } catch (error) {
    // The reader stopped early (`loom export | head`): it has what it wanted.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  } finally {
    await store.close();
  }
}

export async function exportGraph(store: Store, output: Writable, options: { tokens: boolean }): Promise<number> {
  const kinds = RECORD_KINDS.filter((kind) => options.tokens || !TOKEN_KINDS.includes(kind));
  const counts: Partial<Record<RecordKind, number>> = {};
  for (const kind of kinds) counts[kind] = await store.countRecords(kind);
  const progress = createProgress('Exporting the graph', process.stderr);
  let written = 0;
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  async function* lines(): AsyncGenerator<string> {
    yield headerLine(counts);
    for (const kind of kinds) {
      let after: RecordKey | undefined;
      for (;;) {
        const records = await store.scanRecords(kind, after, PAGE);
        if (records.length > 0) yield records.map((record) => `${JSON.stringify(record)}\n`).join('');
        written += records.length;
        // Rows written since the header counted them may outnumber it; the bar stops at full.
        progress.update(written, Math.max(written, total));
        if (records.length < PAGE) break;
        after = recordKey(records[records.length - 1]!);
      }
    }
    yield endLine(written);
  }
  // The pipeline waits whenever the reader is slower, so memory holds one page at a time.
  await pipeline(Readable.from(lines()), output, { end: false });
  progress.finish();
  return written;
}
