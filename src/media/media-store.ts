import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Image bytes on disk, under one directory, each file named by a random key. The key, not the
 * photo id, names the file so the bytes can be made durable before the photo row exists: an
 * upload stages its file under a temporary name, commits the row that points at it, and only
 * then publishes the file under its key. A crash in between leaves a staged file, which a read
 * of it or the sweep (media-sweep.ts) publishes when its row committed, and the sweep removes
 * otherwise.
 */
export class MediaStore {
  constructor(readonly dir: string) {}

  /** Writes the bytes durably under a temporary name and returns their key. */
  async stage(bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const folder = this.folderOf(key);
    // Photos may be private: the directory tree is the server's alone.
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const file = await open(this.stagedPathOf(key), 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await syncDirectory(folder);
    return key;
  }

  /**
   * Puts staged bytes in place under their key, once the row that points at them has committed.
   * The upload, a read that missed the file and a sweep may each get there: whichever comes
   * second finds the work done.
   */
  async publish(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    try {
      await rename(this.stagedPathOf(key), this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (await exists(this.pathOf(key)))) return;
      throw error;
    }
    await syncDirectory(this.folderOf(key));
  }

  /** Whether bytes of this key are staged and not yet published. */
  async isStaged(key: string): Promise<boolean> {
    return KEY.test(key) && (await exists(this.stagedPathOf(key)));
  }

  /** Drops staged bytes whose row never committed. */
  async discard(key: string): Promise<void> {
    if (KEY.test(key)) await rm(this.stagedPathOf(key), { force: true });
  }

  /** The bytes of a key, or undefined when there are none. */
  async read(key: string): Promise<Buffer | undefined> {
    if (!KEY.test(key)) return undefined;
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    if (KEY.test(key)) await rm(this.pathOf(key), { force: true });
  }

  /** Every file under the folder whose name is a key, staged or published, with when it was last written. */
  async list(): Promise<StoredFile[]> {
    const files: StoredFile[] = [];
    for (const folder of await namesIn(this.photosDir)) {
      const folderPath = join(this.photosDir, folder);
      for (const name of await namesIn(folderPath)) {
        const staged = name.endsWith(STAGED);
        const key = staged ? name.slice(0, -STAGED.length) : name;
        if (!KEY.test(key)) continue;
        const path = join(folderPath, name);
        try {
          files.push({ key, staged, path, writtenAt: (await stat(path)).mtimeMs });
        } catch (error) {
          // Published, discarded or swept since the folder was read.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
    return files;
  }

  /** Two levels of fan-out keep any one directory small. */
  private folderOf(key: string): string {
    return join(this.photosDir, key.slice(0, 2));
  }

  private pathOf(key: string): string {
    return join(this.folderOf(key), key);
  }

  private stagedPathOf(key: string): string {
    return `${this.pathOf(key)}${STAGED}`;
  }

  /** The folder that holds every image file, in fan-out folders. */
  get photosDir(): string {
    return join(this.dir, 'photos');
  }
}

export interface StoredFile {
  key: string;
  /** Staged by an upload, not yet published. */
  staged: boolean;
  path: string;
  /** Milliseconds since the epoch, on the system's clock (the file's mtime). */
  writtenAt: number;
}

const KEY = /^[0-9a-f]{32}$/;
/** The suffix of a file staged but not yet published. */
const STAGED = '.staged';

/** A rename survives a crash only once its directory entry is on disk. */
export async function syncDirectory(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}
