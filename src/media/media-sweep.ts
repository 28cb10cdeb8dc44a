import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaKeyOf } from '../schema/media.js';
import { recordKey, type RecordKey } from '../store/records.js';
import type { Store } from '../store/store.js';
import { KEY, STAGED, type MediaStore } from './media-store.js';

export interface SweepResult {
  /** Staged files whose row had committed, now in place. */
  published: number;
  /** Files no row points at: staged by an upload that never committed, or left by a delete cut short. */
  removed: number;
}

/** Objects read per scan of the store. */
const PAGE = 1000;

/**
 * Settles the media directory after a crash: a staged file whose row committed is published, and
 * any file no object points at is removed. Files changed after `olderThan` (milliseconds since
 * the epoch) are left alone, since an upload by another process may be under way with them.
 */
export async function sweepMedia(store: Store, media: MediaStore, options: { olderThan: number }): Promise<SweepResult> {
  const files = await candidateFiles(media, options.olderThan);
  const result: SweepResult = { published: 0, removed: 0 };
  if (files.length === 0) return result;
  const referenced = await referencedKeys(store, new Set(files.map((file) => file.key)));
  for (const file of files) {
    if (referenced.has(file.key)) {
      if (!file.staged) continue;
      await media.publish(file.key);
      result.published += 1;
    } else {
      await rm(file.path, { force: true });
      result.removed += 1;
    }
  }
  return result;
}

interface MediaFile {
  key: string;
  staged: boolean;
  path: string;
}

async function candidateFiles(media: MediaStore, olderThan: number): Promise<MediaFile[]> {
  const files: MediaFile[] = [];
  for (const folder of await namesIn(media.photosDir)) {
    const folderPath = join(media.photosDir, folder);
    for (const name of await namesIn(folderPath)) {
      const staged = name.endsWith(STAGED);
      const key = staged ? name.slice(0, -STAGED.length) : name;
      if (!KEY.test(key)) continue;
      const path = join(folderPath, name);
      if ((await stat(path)).mtimeMs < olderThan) files.push({ key, staged, path });
    }
  }
  return files;
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/** Which of these keys some object (a photo or video, or the story that shows it) points at: one scan of the objects. */
async function referencedKeys(store: Store, keys: ReadonlySet<string>): Promise<Set<string>> {
  const found = new Set<string>();
  let after: RecordKey | undefined;
  for (;;) {
    const records = await store.scanRecords('object', after, PAGE);
    for (const record of records) {
      if (record.record !== 'object') continue;
      const key = mediaKeyOf(record.data);
      if (key !== undefined && keys.has(key)) found.add(key);
    }
    if (records.length < PAGE) return found;
    after = recordKey(records[records.length - 1]!);
  }
}
