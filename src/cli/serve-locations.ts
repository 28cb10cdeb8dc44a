import { accessSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeSystemError } from '../errors.js';
import { UsageError } from './args.js';

/**
 * The files, folders and addresses `serve` is given, checked before it starts: a server that
 * printed its banner must not then fail on the first request log or the first upload.
 */

/** Where request logs go: `--log`, else nowhere when a person watches the banner, else standard output. */
export function requestLog(choice: string | undefined): boolean | { file: string } {
  if (choice === undefined) return process.stdout.isTTY ? false : true;
  if (choice === 'off') return false;
  if (choice === '-') return true;
  if (choice === '') throw new UsageError('--log needs a file, "-" or "off"');
  try {
    closeSync(openSync(choice, 'a'));
  } catch (error) {
    throw new UsageError(`--log: cannot write to ${choice}: ${describeSystemError(error)}`, { help: false });
  }
  return { file: choice };
}

/** The folder of uploaded photos: one Loom can write in, or one it can create when the first photo comes. */
export function mediaDirOption(dir: string): string {
  let existing = resolve(dir);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const problem =
    !statSync(existing).isDirectory() ? `${existing} is a file, not a folder` : writable(existing) ? undefined : `${existing} is not writable`;
  if (problem) throw new UsageError(`uploaded photos cannot be kept in ${dir}: ${problem}; choose another folder with --media-dir DIR`, { help: false });
  return dir;
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * An absolute http(s) address given by the first of `sources` that is set (`--public-url` or
 * `LOOM_PUBLIC_URL`, say), or undefined when none is.
 */
export function baseUrlOption(sources: Readonly<Record<string, string | undefined>>): string | undefined {
  const found = Object.entries(sources).find((entry): entry is [string, string] => entry[1] !== undefined);
  if (found === undefined) return undefined;
  const [source, text] = found;
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new UsageError(`${source} must be an http:// or https:// address such as https://graph.example.com, not "${text}"`);
  }
  return text;
}
