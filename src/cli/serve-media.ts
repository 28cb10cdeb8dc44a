import { chooseMediaDir, databaseNameOf, defaultMediaDir } from '../media/media-folder.js';
import { claimMediaFolder, MediaFolderError } from '../media/media-owner.js';
import type { SweepResult } from '../media/media-sweep.js';
import { databaseIdOf } from '../store/database-id.js';
import type { Store } from '../store/store.js';
import { UsageError } from './args.js';

/** The database's media folder (chooseMediaDir), claimed; one of another database is the user's to sort out: named, with what to do. */
export async function claimedMediaDir(store: Store, db: string, given: string | undefined): Promise<string> {
  try {
    const folder = await chooseMediaDir(store, db, given);
    await claimMediaFolder(folder, { id: await databaseIdOf(store), name: databaseNameOf(db) });
    return folder;
  } catch (error) {
    if (!(error instanceof MediaFolderError)) throw error;
    const another = given === undefined ? 'name a folder of its own with --media-dir DIR' : `leave out --media-dir and LOOM_MEDIA_DIR for its own folder, ${defaultMediaDir(db)}, or name another`;
    throw new UsageError(`${error.message}.\nTo serve ${databaseNameOf(db)}, ${another}.`, { help: false });
  }
}

/** What the sweeps of the media folder settled, or why one failed, for the person watching. */
export function reportSweep(mediaDir: string): (outcome: SweepResult | Error) => void {
  return (outcome) => {
    if (outcome instanceof Error) return void process.stderr.write(`The media folder ${mediaDir} could not be swept: ${outcome.message}\n`);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    process.stderr.write(`Media: ${count(outcome.published, 'committed upload')} put in place, ${count(outcome.removed, 'file')} nothing uses removed (${mediaDir})\n`);
  };
}
