/**
 * A loaded declaration kept as JSON, keyed by the text of every file it was read from. Reading
 * and checking the YAML costs a process a few hundred milliseconds (the parser, the compiled
 * `loom-schema.json` checker); the built-in Graph declaration is the same in every process, so
 * each process after the first reads the JSON instead. A changed, added or missing file, a
 * changed loader or `loom-schema.json`, or a cache that cannot be read, means the files are loaded
 * again; a cache that cannot be written (a read-only install) only costs the time.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { loadDeclaration } from './load.js';
import type { Declaration, LoadedDeclaration } from './model.js';

interface CacheRecord {
  /** The files read, relative to the main file's folder, main file first. */
  files: string[];
  /** Hash of the loader and every file's name and text, in that order. */
  hash: string;
  declaration: Declaration;
}

/** What reads a declaration: a declaration loaded by another version of them is loaded again. */
const LOADER = [new URL('./load.js', import.meta.url), new URL('../../../loom-schema.json', import.meta.url)];

/** Hash of the loader and the files' names and texts; undefined when one cannot be read. */
function hashFiles(folder: string, files: readonly string[]): string | undefined {
  const hash = createHash('sha256');
  try {
    for (const file of LOADER) hash.update(`${readFileSync(file, 'utf8')}\0`);
    for (const file of files) hash.update(`${file}\0${readFileSync(resolve(folder, file), 'utf8')}\0`);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

function readCache(cacheFile: string, folder: string): CacheRecord | undefined {
  let record: CacheRecord;
  try {
    record = JSON.parse(readFileSync(cacheFile, 'utf8')) as CacheRecord;
  } catch {
    return undefined;
  }
  if (!Array.isArray(record.files) || record.files.length === 0) return undefined;
  return hashFiles(folder, record.files) === record.hash ? record : undefined;
}

function writeCache(cacheFile: string, folder: string, loaded: LoadedDeclaration): void {
  const files = loaded.files.map((file) => relative(folder, file));
  const hash = hashFiles(folder, files);
  if (hash === undefined) return;
  const record: CacheRecord = { files, hash, declaration: loaded.declaration };
  // Written whole under another name first: a process reading meanwhile sees the old or the new record.
  const partial = `${cacheFile}.${process.pid}`;
  try {
    writeFileSync(partial, JSON.stringify(record));
    renameSync(partial, cacheFile);
  } catch {
    // Not writable: every process loads the files, as without a cache.
    rmSync(partial, { force: true });
  }
}

/** loadDeclaration(path), from `cacheFile` when every file it read is unchanged; the cache is refreshed otherwise. */
export function loadDeclarationCached(path: string, cacheFile: string): LoadedDeclaration {
  const main = resolve(path);
  const folder = dirname(main);
  const record = readCache(cacheFile, folder);
  if (record === undefined) {
    const loaded = loadDeclaration(main);
    writeCache(cacheFile, folder, loaded);
    return loaded;
  }
  const { declaration } = record;
  let located: LoadedDeclaration | undefined;
  return {
    declaration,
    file: main,
    files: record.files.map((file) => resolve(folder, file)),
    text: JSON.stringify(declaration),
    // Lines are only asked for a problem found after loading; the files are read again to find them.
    locate: (key) => (located ??= loadDeclaration(main)).locate(key),
  };
}
