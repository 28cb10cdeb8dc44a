import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Image bytes on disk, under one directory, each file named by a random key. The key, not the
 * photo id, names the file so the bytes can be made durable before the photo row exists: an
 * upload writes and syncs its file, then commits the row that points at it.
 */
export class MediaStore {
  constructor(readonly dir: string) {}

  /** Writes the bytes durably and returns their key. */
  async save(bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const folder = this.folderOf(key);
    // Photos may be private: the directory tree is the server's alone.
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const partial = join(folder, `${key}.partial`);
    const file = await open(partial, 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(partial, this.pathOf(key));
    await syncDirectory(folder);
    return key;
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

  /** Two levels of fan-out keep any one directory small. */
  private folderOf(key: string): string {
    return join(this.dir, 'photos', key.slice(0, 2));
  }

  private pathOf(key: string): string {
    return join(this.folderOf(key), key);
  }
}

const KEY = /^[0-9a-f]{32}$/;

/** A rename survives a crash only once its directory entry is on disk. */
async function syncDirectory(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
