import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Clock } from '../clock/clock.js';
import { syncDirectory } from './media-store.js';

/**
 * A media folder belongs to one database. The owner file in it names the database by its id
 * (kept in the database, see database-id.ts) and, for people, by where it lives. A database
 * serves and sweeps only a folder that names it; any other is refused, never swept, since the
 * files there may be the only copy of another database's photos.
 */
export const OWNER_FILE = 'owner.json';

export interface FolderOwner {
  /** The owning database's id. */
  databaseId: string;
  /** Where the owning database lives: a SQLite file's absolute path, a PostgreSQL URL without its password. */
  database: string;
  /** Unix seconds, on the wall clock, when it claimed the folder. */
  claimedAt: number;
  /**
   * Whether the folder already held files when it was claimed (a folder Loom shared between
   * databases before folders had owners): those may be another database's, so they are never
   * removed unless this database's rows name them.
   */
  adopted: boolean;
}

/** A database asking for a folder: its id and where it lives. */
export interface Claimant {
  id: string;
  name: string;
}

/** The folder cannot be this database's: it is another's, or says so unreadably. */
export class MediaFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaFolderError';
  }
}

/**
 * Makes `folder` the claimant's, or confirms it is: an unclaimed folder is claimed (created if
 * need be), one claimed by the claimant is used, and any other is refused with a
 * MediaFolderError that names both databases. Processes of one database may claim together.
 */
export async function claimMediaFolder(folder: string, claimant: Claimant): Promise<FolderOwner> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const owner = await readOwner(folder);
    if (owner) return confirmOwner(folder, owner, claimant);
    // What a claim cut short left is no one's media.
    const adopted = (await namesIn(folder)).some((name) => !name.startsWith(OWNER_FILE));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const claim: FolderOwner = { databaseId: claimant.id, database: claimant.name, claimedAt: Clock.real().now(), adopted };
    // Exclusive: of two databases claiming the same new folder, one wins and the other is refused.
    if (await writeOwner(folder, claim, 'new')) return claim;
  }
  throw new MediaFolderError(`The media folder ${folder} could not be claimed: its owner file ${join(folder, OWNER_FILE)} keeps changing`);
}

/** Who the folder belongs to; undefined when it has no owner file (or does not exist). */
export async function readOwner(folder: string): Promise<FolderOwner | undefined> {
  const file = join(folder, OWNER_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw new MediaFolderError(`The media folder ${folder} is not a folder`);
    throw error;
  }
  const owner = parseOwner(text);
  if (!owner) throw new MediaFolderError(`The media folder ${folder} has an owner file that Loom cannot read (${file}), so nothing says whose it is`);
  return owner;
}

/** Files of an adopted folder written before this instant (milliseconds) are never removed unless the owner's rows name them. */
export function keptBefore(owner: FolderOwner): number {
  // A whole second past the claim: the owner file keeps seconds, the files' times are finer.
  return owner.adopted ? (owner.claimedAt + 1) * 1000 : 0;
}

async function confirmOwner(folder: string, owner: FolderOwner, claimant: Claimant): Promise<FolderOwner> {
  if (owner.databaseId !== claimant.id) {
    if (owner.database === claimant.name) {
      throw new MediaFolderError(
        `The media folder ${folder} belongs to an earlier database at ${owner.database} (database id ${owner.databaseId}), ` +
          `not to the one there now (database id ${claimant.id}). If that earlier database is gone for good, remove the folder ` +
          `(its photos go with it)`,
      );
    }
    throw new MediaFolderError(
      `The media folder ${folder} belongs to ${owner.database} (database id ${owner.databaseId}); ` +
        `${claimant.name} (database id ${claimant.id}) cannot keep its media there`,
    );
  }
  if (owner.database === claimant.name) return owner;
  if (isOtherFile(owner.database, claimant.name)) {
    throw new MediaFolderError(
      `The media folder ${folder} belongs to ${owner.database}, and ${claimant.name} has the same database id: it is a copy ` +
        `of that file, and a copy keeps its media in a folder of its own`,
    );
  }
  // The database was moved (or is named differently now): the folder follows it.
  const moved = { ...owner, database: claimant.name };
  await writeOwner(folder, moved, 'replace');
  return moved;
}

/** Whether both name SQLite files that both exist and are not one file: a copy beside its original. */
function isOtherFile(owner: string, claimant: string): boolean {
  if (!existsSync(owner) || !existsSync(claimant)) return false;
  const [a, b] = [statSync(owner), statSync(claimant)];
  return a.dev !== b.dev || a.ino !== b.ino;
}

/** Writes the owner file whole or not at all; 'new' answers false when another claim got there first. */
async function writeOwner(folder: string, owner: FolderOwner, mode: 'new' | 'replace'): Promise<boolean> {
  const file = join(folder, OWNER_FILE);
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(owner, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (mode === 'replace') await rename(partial, file);
    else await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(partial, { force: true });
  }
  await syncDirectory(folder);
  return true;
}

function parseOwner(text: string): FolderOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { databaseId, database, claimedAt, adopted } = value as Record<string, unknown>;
  if (typeof databaseId !== 'string' || typeof database !== 'string' || typeof claimedAt !== 'number' || typeof adopted !== 'boolean') return undefined;
  return { databaseId, database, claimedAt, adopted };
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
