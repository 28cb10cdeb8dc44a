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

/**
 * Follows the applied version for a serving process, asked before each request with the store's
 * auth version, which every apply moves (on PostgreSQL by its notification, in every process):
 * the latest version is read only when that number moved, and loaded only when it is newer than
 * the one served. Answers the Schema the request is to be served by; a request keeps it to the end.
 */
export function followAppliedSchema(store: Store, served: { version: number; schema: Schema }): (authVersion: number) => Promise<Schema> {
  let version = served.version;
  let seenAuthVersion: number | undefined;
  let current: Promise<Schema> = Promise.resolve(served.schema);
  return (authVersion) => {
    if (authVersion === seenAuthVersion) return current;
    seenAuthVersion = authVersion;
    const before = current;
    // Requests arriving together share one read, and none answers before the version it saw is in.
    current = before.then(async (schema) => {
      try {
        const latest = await store.latestSchemaVersion();
        if (!latest || latest.version === version) return schema;
        // Tried once per version: a version that cannot be served is reported, and the last good one stays.
        version = latest.version;
        const loaded = await loadAppliedSchema(store);
        return loaded ? loaded.schema : schema;
      } catch (error) {
        process.stderr.write(`The applied schema could not be loaded: ${(error as Error).message}\n`);
        return schema;
      }
    });
    return current;
  };
}
