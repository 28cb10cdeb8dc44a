import { envDb } from '../config.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { openExistingStore } from './existing-store.js';

/** Runs `use` on the store --db names (or $LOOM_DB's), which is closed however `use` ends. */
export async function withStore<T>(db: string | undefined, use: (store: Store) => Promise<T>): Promise<T> {
  return usingStore(openStore(db ?? envDb()), use);
}

/** {@link withStore} for a command that only reads or changes what is there: see openExistingStore. */
export async function withExistingStore<T>(db: string | undefined, use: (store: Store) => Promise<T>): Promise<T> {
  return usingStore(openExistingStore(db ?? envDb()), use);
}

async function usingStore<T>(store: Store, use: (store: Store) => Promise<T>): Promise<T> {
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
