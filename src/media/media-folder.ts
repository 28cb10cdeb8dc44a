import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { databaseIdOf } from '../store/database-id.js';
import { redactPassword } from '../store/redact-password.js';
import type { Store } from '../store/store.js';
import { MediaStore } from './media-store.js';
import { readOwner } from './media-owner.js';
import { referencedKeys } from './media-sweep.js';

/** Where every database served from a directory kept its media before folders had owners. */
const SHARED_MEDIA_DIR = 'loom-media';

const POSTGRES = /^postgres(ql)?:\/\//i;

/** How a database is named to people and in its media folder's owner file: a SQLite file's absolute path, a URL without its password. */
export function databaseNameOf(db: string): string {
  return POSTGRES.test(db) ? redactPassword(db) : resolve(db);
}

/**
 * The media folder a database has unless told otherwise: beside a SQLite file (`loom.db` keeps
 * `loom.db-media`), and for PostgreSQL one per server, database and schema in the working directory.
 */
export function defaultMediaDir(db: string): string {
  if (!POSTGRES.test(db)) return resolve(dirname(db), `${basename(db)}-media`);
  const url = new URL(db);
  const parts = [url.hostname || 'localhost', url.port || '5432', decodeURIComponent(url.pathname.slice(1)) || 'postgres', url.searchParams.get('schema') ?? 'public'];
  return resolve(`loom-media-${parts.map((part) => part.replace(/[^A-Za-z0-9._]+/g, '_')).join('-')}`);
}

/**
 * The folder a database keeps its media in: the one it is given, else its default, except that a
 * database whose photos are in the shared `./loom-media` of earlier versions keeps them there
 * (it claims that folder on its first start, when the folder has no owner and holds its files).
 */
export async function chooseMediaDir(store: Store, db: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return resolve(given);
  const own = defaultMediaDir(db);
  const shared = resolve(SHARED_MEDIA_DIR);
  if (shared === own || !existsSync(shared) || (await readOwner(own)) !== undefined) return own;
  const owner = await readOwner(shared).catch(() => undefined);
  const id = await databaseIdOf(store);
  if (owner !== undefined) return owner.databaseId === id ? shared : own;
  const keys = (await new MediaStore(shared).list()).map((file) => file.key);
  return (await referencedKeys(store, keys)).size > 0 ? shared : own;
}
