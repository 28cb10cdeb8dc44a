import { envDb } from '../config.js';
import { sharedClock } from '../control/control-plane.js';
import { applyDeclaration, pruneDeclaration } from '../declared/apply.js';
import { describeChange } from '../declared/diff.js';
import { checkStoredData } from './schema-check-data.js';
import { describeNarrowing, NarrowingError } from '../declared/narrowing.js';
import { DeclarationError, loadDeclaration } from '../declared/load.js';
import type { LoadedDeclaration } from '../declared/model.js';
import { openStore } from '../store/open-store.js';
import { redactPassword } from '../store/redact-password.js';
import { parseCommandArgs, UsageError } from './args.js';
import { openExistingStore } from './existing-store.js';

export const schemaHelp = `Usage: loom schema apply FILE [--db PATH|URL] [--force] [--json]
       loom schema diff FILE [--db PATH|URL]
       loom schema prune [--db PATH|URL]
       loom schema check FILE [--data [--db PATH|URL]] [--json]

Serves your own node types: FILE declares them (YAML, or JSON; loom-schema.json
describes the format).

  apply   check FILE and record it as the database's next schema version: the
          first apply creates the app named after the schema; renames keep their
          data; derived lists an edge gains (inverse, backed_by) are filled in
          batches, and an interrupted apply resumes where it stopped; a
          narrowing change (enum values removed, a shorter max_length, a field
          made required, float to int) is refused unless --force: check it first
          with "check FILE --data"
  diff    show what apply would change, recording nothing
  prune   delete the data of fields and edges the applied schema no longer names
  check   check FILE and its code module, touching no database; with --data,
          also list the stored objects (id, key, field, value, reason) that
          FILE's narrowing changes would reject, exiting 1 when there are any

Options:
  --db PATH|URL   SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  --data          (check) scan the stored data of the fields FILE narrows
  --force         (apply) record a narrowing change whatever the data holds
  --json          print the result as one JSON line
  -h, --help      show this help

Example:
  bin/loom schema apply bookclub.loom.yaml --db club.db
`;

export async function schemaCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { db: { type: 'string' }, json: { type: 'boolean' }, data: { type: 'boolean' }, force: { type: 'boolean' } },
    { positionals: true },
  );
  if (values.help) return void process.stdout.write(schemaHelp);
  const [action, file, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(' ')}`);
  if (values.data && action !== 'check') throw new UsageError('--data goes with check');
  if (values.force && action !== 'apply') throw new UsageError('--force goes with apply');
  const db = values.db ?? envDb();
  switch (action) {
    case 'check': {
      const loaded = await loadOrExplain(requireFile(file));
      const { buildDeclaredSchema } = await import('../declared/declared-schema.js');
      await explain(() => buildDeclaredSchema(loaded.declaration, loaded.file, undefined, loaded.locate));
      if (values.data) return checkStoredData(loaded, db, values.json === true);
      process.stdout.write(`${loaded.file}: schema ${loaded.declaration.name} version ${loaded.declaration.version} is valid\n`);
      return;
    }
    case 'apply':
    case 'diff': {
      const loaded = await loadOrExplain(requireFile(file));
      const store = action === 'apply' ? openStore(db) : openExistingStore(db);
      try {
        const now = (await sharedClock(store)).now();
        const result = await explain(() => applyDeclaration(store, loaded, now, { dryRun: action === 'diff', force: values.force === true }));
        if (values.json) {
          process.stdout.write(`${JSON.stringify({ version: result.version ?? null, app_id: result.app ? String(result.app.id) : null, changes: result.changes.map(describeChange), backfilled: result.backfilled })}\n`);
          return;
        }
        const lines = [...result.changes.map(describeChange), ...result.narrowings.map(describeNarrowing)];
        if (action === 'diff' && result.narrowings.length > 0) lines.push(`Narrowing changes: list the stored objects they reject with bin/loom schema check ${file} --data --db ${redactPassword(db)}`);
        if (action === 'diff') lines.push(lines.length === 0 ? 'Nothing to apply.' : `Apply with: bin/loom schema apply ${file} --db ${redactPassword(db)}`);
        else if (result.version === undefined) lines.push(`Schema ${loaded.declaration.name} is applied already; nothing changed.`);
        else lines.push(`Applied schema ${loaded.declaration.name} as version ${result.version}, served by app ${result.app.id} ("${result.app.name}").${result.backfilled > 0 ? ` ${result.backfilled} derived links filled.` : ''}`);
        process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        await store.close();
      }
      return;
    }
    case 'prune': {
      if (file !== undefined) throw new UsageError('prune takes no file: it removes what the applied schema no longer names');
      const store = openExistingStore(db);
      try {
        const result = await pruneDeclaration(store, (await sharedClock(store)).now());
        if (values.json) return void process.stdout.write(`${JSON.stringify(result)}\n`);
        const removed = [...result.fields.map((key) => `field data ${key}`), ...result.edges.map((key) => `edge ${key}`)];
        process.stdout.write(`${removed.length === 0 ? 'Nothing to prune.' : `Pruned ${removed.join(', ')} (${result.rows} rows).`}\n`);
      } finally {
        await store.close();
      }
      return;
    }
    default:
      throw new UsageError(action === undefined ? 'name an action: apply, diff, prune or check' : `unknown action "${action}"`);
  }
}

function requireFile(file: string | undefined): string {
  if (file === undefined) throw new UsageError('name the declaration file');
  return file;
}

async function loadOrExplain(file: string): Promise<LoadedDeclaration> {
  return explain(async () => loadDeclaration(file));
}

/** A declaration's problems are the user's to fix: printed one per line, without a stack. */
export async function explain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DeclarationError) throw new UsageError(`the declaration has problems:\n${error.message}`, { help: false });
    if (error instanceof NarrowingError) throw new UsageError(error.message, { help: false });
    throw error;
  }
}
