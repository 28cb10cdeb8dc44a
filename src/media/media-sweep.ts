import { rm } from 'node:fs/promises';
import type { Store } from '../store/store.js';
import type { MediaStore, StoredFile } from './media-store.js';

export interface SweepResult {
  /** Staged files whose row had committed, now in place. */
  published: number;
  /** Files no row points at: staged by an upload that never committed, or left by a delete cut short. */
  removed: number;
}

export interface SweepOptions {
  /**
   * Files written after this instant (milliseconds since the epoch) are not removed: an upload
   * may be under way with them, in this process or another.
   */
  olderThan: number;
  /** Nor are files written before this instant: they were in an adopted folder before its owner claimed it (see keptBefore). */
  keptBefore: number;
}

/**
 * Settles a media folder this database owns: a staged file whose row committed (a crash or a
 * kill came between the commit and the publish) is published, whatever its age, and a file no
 * object of the graph or of its snapshots points at is removed once it is old enough.
 */
export async function sweepMedia(store: Store, media: MediaStore, options: SweepOptions): Promise<SweepResult> {
  const removable = (file: StoredFile) => file.writtenAt < options.olderThan && file.writtenAt >= options.keptBefore;
  const files = (await media.list()).filter((file) => file.staged || removable(file));
  const result: SweepResult = { published: 0, removed: 0 };
  if (files.length === 0) return result;
  const referenced = await referencedKeys(store, files.map((file) => file.key));
  for (const file of files) {
    if (referenced.has(file.key)) {
      if (!file.staged) continue;
      await media.publish(file.key);
      result.published += 1;
    } else if (removable(file)) {
      await rm(file.path, { force: true });
      result.removed += 1;
    }
  }
  return result;
}

/**
 * The bytes of a key, publishing them first when they are still staged but their row has
 * committed: a read need not wait for a sweep to find a photo that exists. Undefined when
 * there are none, or none that a committed row points at.
 */
export async function readCommitted(store: Store, media: MediaStore, key: string): Promise<Buffer | undefined> {
  const bytes = await media.read(key);
  if (bytes !== undefined) return bytes;
  if (await media.isStaged(key)) {
    if (!(await referencedKeys(store, [key])).has(key)) return undefined;
    await media.publish(key);
  }
  // Published here, or by its upload or a sweep since the first read.
  return media.read(key);
}

/**
 * Removes the files of deleted or undone rows, but those something still points at (a snapshot or
 * a mark of the undo log that a restore may bring back).
 */
export async function removeUnreferenced(store: Store, media: MediaStore, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const referenced = await referencedKeys(store, keys);
  for (const key of keys) if (!referenced.has(key)) await media.remove(key);
}

/** Which of these keys an object of the graph, or of one of its snapshots, points at. */
export function referencedKeys(store: Store, keys: readonly string[]): Promise<Set<string>> {
  return store.findMediaKeys([...new Set(keys)]);
}
