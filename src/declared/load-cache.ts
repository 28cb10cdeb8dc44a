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
import { DECLARATION_SCHEMA, loadDeclaration } from './load.js';
import type { Declaration, LoadedDeclaration } from './model.js';

interface CacheRecord {
  /** The files read, relative to the main file's folder, main file first. */
  files: string[];
  /** Hash of the loader and every file's name and text, in that order. */
  hash: string;
  declaration: Declaration;
}

/** A file of the declaration: its name relative to the main file's folder, and its text. */
interface Source {
  name: string;
  text: string;
}

/**
 * What reads a declaration: a declaration loaded by another version of them is loaded again.
 * Named from the folder above, as from the CLI's bundle (see GRAPH_CACHE in graph-schema.ts).
 */
const LOADER = [new URL('../declared/load.js', import.meta.url), DECLARATION_SCHEMA];
/** The loader's text as this process runs it, read once. */
let loaderText: string | undefined;

/** The cache's key for these sources, under this process's loader. */
function keyOf(sources: readonly Source[]): string {
  loaderText ??= LOADER.map((file) => readFileSync(file, 'utf8')).join('\0');
  const hash = createHash('sha256').update(`${loaderText}\0`);
  for (const { name, text } of sources) hash.update(`${name}\0${text}\0`);
  return hash.digest('hex');
}

/** The files as they are now; undefined when one cannot be read. */
function readSources(folder: string, names: readonly string[]): Source[] | undefined {
  try {
    return names.map((name) => ({ name, text: readFileSync(resolve(folder, name), 'utf8') }));
  } catch {
    return undefined;
  }
}

/** The record and its files, while every file reads as it did when the record was made. */
function readCache(cacheFile: string, folder: string): { record: CacheRecord; sources: Source[] } | undefined {
  let record: CacheRecord;
  try {
    record = JSON.parse(readFileSync(cacheFile, 'utf8')) as CacheRecord;
  } catch {
    return undefined;
  }
  if (!Array.isArray(record.files) || record.files.length === 0) return undefined;
  const sources = readSources(folder, record.files);
  return sources !== undefined && keyOf(sources) === record.hash ? { record, sources } : undefined;
}

function writeCache(cacheFile: string, folder: string, loaded: LoadedDeclaration): void {
  // Keyed by the texts that were parsed, not read again: a file saved meanwhile makes the key miss.
  const sources = loaded.sources.map(({ file, text }) => ({ name: relative(folder, file), text }));
  const record: CacheRecord = { files: sources.map((source) => source.name), hash: keyOf(sources), declaration: loaded.declaration };
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
  const cached = readCache(cacheFile, folder);
  if (cached === undefined) {
    const loaded = loadDeclaration(main);
    writeCache(cacheFile, folder, loaded);
    return loaded;
  }
  const { declaration } = cached.record;
  let located: LoadedDeclaration | undefined;
  return {
    declaration,
    file: main,
    sources: cached.sources.map(({ name, text }) => ({ file: resolve(folder, name), text })),
    text: JSON.stringify(declaration),
    // Lines are only asked for a problem found after loading; the files are read again to find them.
    locate: (key) => (located ??= loadDeclaration(main)).locate(key),
  };
}
