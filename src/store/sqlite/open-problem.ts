import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describeSystemError } from '../../errors.js';

/**
 * Why the SQLite database at `path` could not be opened, in words that say what to change.
 * SQLite answers "unable to open database file" for a folder, a missing folder and a forbidden
 * one alike; the file system tells them apart.
 */
export function sqliteOpenProblem(path: string, error: unknown): string {
  if (isFolder(path)) return `it is a folder; name a file, such as ${join(path, 'loom.db')}`;
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) return `the folder ${folder} does not exist`;
  if (!isFolder(folder)) return `${folder} is a file, not a folder`;
  if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  return describeSystemError(error);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
