/**
 * The declaration a database serves: the one `loom schema apply` recorded last in
 * `schema_versions`, with the storage keys pinned when each name was first applied.
 */
import type { Schema } from '../schema/registry.js';
import type { Store } from '../store/store.js';
import { buildDeclaredSchema, type DeclaredSchema } from './declared-schema.js';
import { parseDeclarationText } from './load.js';
import type { Declaration, StorageKeys } from './model.js';

export interface AppliedSchema {
  /** Row number in `schema_versions`, moved on by every apply. */
  version: number;
  name: string;
  /** sha256 of the text. */
  hash: string;
  /** The declaration as applied (includes merged), as JSON text. */
  text: string;
  declaration: Declaration;
  /** Every storage key pinned so far, including those of names since removed and not yet pruned. */
  storage: StorageKeys;
  /** The file applied; a `code:` module is found relative to it. */
  source: string;
  /** The app serving the schema, created by the first apply and named after it. */
  appId: number;
}

export async function readAppliedSchema(store: Store): Promise<AppliedSchema | undefined> {
  const row = await store.latestSchemaVersion();
  if (!row) return undefined;
  return {
    version: row.version,
    name: row.name,
    hash: row.hash,
    text: row.text,
    declaration: parseDeclarationText(row.source, row.text),
    storage: JSON.parse(row.storage) as StorageKeys,
    source: row.source,
    appId: row.appId,
  };
}

/** The Schema of the applied declaration, its code module loaded; undefined when nothing was applied. */
export async function loadAppliedSchema(store: Store): Promise<(DeclaredSchema & { applied: AppliedSchema }) | undefined> {
  const applied = await readAppliedSchema(store);
  if (!applied) return undefined;
  return { ...(await buildDeclaredSchema(applied.declaration, applied.source, applied.storage, undefined, applied.appId)), applied };
}

/** How often a serving process looks for a newer applied version. */
export const SCHEMA_POLL_MS = 1000;

/**
 * Polls the version row and hands each newer applied version's Schema to `use`, between
 * requests: a request keeps the Schema it started with. Returns the function that stops polling.
 */
export function watchAppliedSchema(store: Store, servedVersion: number, use: (schema: Schema) => void, intervalMs = SCHEMA_POLL_MS): () => void {
  let version = servedVersion;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      try {
        const latest = await store.latestSchemaVersion();
        if (!latest || latest.version === version) return;
        // Tried once per version: a version that cannot be served is reported, not retried each second.
        version = latest.version;
        const loaded = await loadAppliedSchema(store);
        if (loaded) use(loaded.schema);
      } catch (error) {
        process.stderr.write(`The applied schema could not be reloaded: ${(error as Error).message}\n`);
      } finally {
        busy = false;
      }
    })();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
