import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DATABASE_ID_SETTING } from '../store/snapshots.js';
import type { Store } from '../store/store.js';
import { MediaStore } from './media-store.js';
import { keptBefore, MediaFolderError, OWNER_FILE, readOwner } from './media-owner.js';
import { referencedKeys } from './media-sweep.js';

/** What of a media folder may go with its database: the whole folder, or (an adopted one) these files of it. */
export type OwnMedia = { folder: string; whole: true } | { folder: string; whole: false; files: string[] };

/**
 * The part of `folder` that is provably the database's own, for removing with it: all of a folder
 * it claimed new; of a folder it adopted, the files its rows name and those written since the
 * claim. Undefined when nothing there is provably its own (no such folder, or no owner file);
 * a MediaFolderError, naming both, when the folder is another database's.
 */
export async function ownMedia(store: Store, db: string, folder: string): Promise<OwnMedia | undefined> {
  const owner = await readOwner(folder);
  if (!owner) return undefined;
  const id = await store.getSetting(DATABASE_ID_SETTING);
  if (owner.databaseId !== id) {
    throw new MediaFolderError(`The media folder ${folder} belongs to ${owner.database} (database id ${owner.databaseId}), not to ${db}${id ? ` (database id ${id})` : ''}`);
  }
  if (!owner.adopted) return { folder, whole: true };
  const stored = await new MediaStore(folder).list();
  const named = await referencedKeys(store, stored.map((file) => file.key));
  const files = stored.filter((file) => named.has(file.key) || file.writtenAt >= keptBefore(owner)).map((file) => file.path);
  return { folder, whole: false, files: [...files, join(folder, OWNER_FILE)] };
}

/** Removes what ownMedia found, and the folders it leaves empty. */
export async function removeOwnMedia(own: OwnMedia): Promise<void> {
  if (own.whole) return rm(own.folder, { recursive: true, force: true });
  for (const file of own.files) await rm(file, { force: true });
  const photos = new MediaStore(own.folder).photosDir;
  for (const fanOut of await readdir(photos).catch(() => [])) await removeIfEmpty(join(photos, fanOut));
  await removeIfEmpty(photos);
  await removeIfEmpty(own.folder);
}

async function removeIfEmpty(folder: string): Promise<void> {
  try {
    await rmdir(folder);
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}
