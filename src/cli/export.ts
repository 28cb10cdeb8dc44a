import { fchmodSync, fstatSync } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SERVER_KEY_SETTINGS } from '../auth/server-keys.js';
import { DATABASE_ID_SETTING } from '../store/snapshots.js';
import { envDb } from '../config.js';
import { RECORD_KINDS, recordKey, TOKEN_KINDS, type RecordKey, type RecordKind, type StoreRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { appliedDataPlan, NoAppliedSchemaError } from '../declared/data/applied-plan.js';
import { exportDataLines } from '../declared/data/export.js';
import { DB_OPTION, flagOptions, parseCommandArgs, UsageError } from './args.js';
import { openExistingStore } from './existing-store.js';
import { endLine, headerLine } from '../store/graph-file.js';
import { createProgress } from '../seed/progress.js';

export const exportHelp = `Usage: loom export [--db PATH|URL] [--tokens] [--secrets] [--keys] > graph.ndjson
       loom export --data [--db PATH|URL] > data.ndjson

Writes the whole graph of a database to standard output, one JSON record per line: objects
with their ids, associations, counts, apps, grants, sign-in credentials and settings. "loom
import" loads the file into another database, SQLite or PostgreSQL. Export a database nobody
writes to meanwhile, so the copy is one consistent moment. Without --secrets and --keys the
file holds nothing that signs anyone in: the copy gets fresh app secrets and server keys.

With --data, writes the own data of a database whose schema "loom schema apply" set up, in
the format "loom import --data" reads: nodes by their keys and the edges a file may give
(lists Loom derives are left out; passwords are stored hashed and are not written).

Options:
  --db PATH|URL   SQLite file or postgres:// URL to read (default: $LOOM_DB or ./loom.db)
  --data          write own data (node and edge lines) instead of the physical records
  --tokens        include access tokens (stored hashed), so issued tokens work on the copy,
                  and the records of revoked ones
  --secrets       include the apps' secrets, so app tokens and client secrets work on the copy
  --keys          include the server's keys (the sign-in dialog's signing key and the
                  token_for_business key), so token_for_business values survive the move;
                  whoever holds them can sign in as anyone: the output file is made readable
                  by its owner only
  -h, --help      show this help
`;

/** Records per scan: large enough to stream quickly, small enough to hold nothing big in memory. */
const PAGE = 1000;

export async function exportCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...DB_OPTION,
    ...flagOptions('tokens', 'secrets', 'keys', 'data'),
  });
  if (values.help) return void process.stdout.write(exportHelp);
  if (values.data) {
    if (values.tokens || values.secrets || values.keys) throw new UsageError('--data writes own data only; --tokens, --secrets and --keys go with the physical export');
    return exportOwnData(values.db ?? envDb());
  }
  const options = { tokens: values.tokens ?? false, secrets: values.secrets ?? false, keys: values.keys ?? false };
  if (options.keys || options.secrets) guardOutputFile();
  const store = openExistingStore(values.db ?? envDb());
  try {
    await exportGraph(store, process.stdout, options);
  } catch (error) {
    // The reader stopped early (`loom export | head`): it has what it wanted.
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  } finally {
    await store.close();
  }
}

/**
 * Keys and secrets let their holder sign in as anyone: a file receiving them is made readable
 * by its owner alone before a byte is written, and the operator is told to keep it safe.
 */
function guardOutputFile(): void {
  if (fstatSync(process.stdout.fd).isFile()) fchmodSync(process.stdout.fd, 0o600);
  process.stderr.write(
    'Warning: this export holds server keys or app secrets; whoever reads it can sign in as anyone. Keep it private and delete it after the import.\n',
  );
}

async function exportOwnData(db: string): Promise<void> {
  const store = openExistingStore(db);
  try {
    const plan = await appliedDataPlan(store).catch((error: unknown) => {
      throw error instanceof NoAppliedSchemaError ? new UsageError(error.message, { help: false }) : error;
    });
    await pipeline(Readable.from(exportDataLines(store, plan)), process.stdout, { end: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  } finally {
    await store.close();
  }
}

export interface ExportOptions {
  tokens: boolean;
  secrets: boolean;
  keys: boolean;
}

export async function exportGraph(store: Store, output: Writable, options: ExportOptions): Promise<number> {
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
        const kept = records.flatMap((record) => withoutSecrets(record, options));
        if (kept.length > 0) yield kept.map((record) => `${JSON.stringify(record)}\n`).join('');
        written += kept.length;
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

/** The record as the export may carry it: without the app's secret or a server key unless asked, never with the database's id. */
function withoutSecrets(record: StoreRecord, options: ExportOptions): StoreRecord[] {
  if (record.record === 'setting' && !options.keys && SERVER_KEY_SETTINGS.includes(record.key)) return [];
  // A copy is a database of its own, with its own media folder.
  if (record.record === 'setting' && record.key === DATABASE_ID_SETTING) return [];
  if (record.record === 'app' && !options.secrets) {
    const { secret: _secret, ...rest } = record;
    return [rest as StoreRecord];
  }
  return [record];
}
