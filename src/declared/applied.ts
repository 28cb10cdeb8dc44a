/**
 * The declaration a database serves: the one `loom schema apply` recorded last in
 * `schema_versions`, with the storage keys pinned when each name was first applied.
 */
import type { Store } from '../store/store.js';
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
  storage: StorageKeys;
}

export async function readAppliedSchema(_store: Store): Promise<AppliedSchema | undefined> {
  return undefined;
}
