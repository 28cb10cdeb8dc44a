import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from '../clock/clock.js';
import { isEmptyStore } from '../store/records.js';
import { describeSearchReindex, type SearchReindex } from '../store/search.js';
import type { Store } from '../store/store.js';
import { seedGraph } from './demo-graph.js';
import { seedLeanGraph, type LeanProfile } from './lean-graph.js';
import { createProgress } from './progress.js';
import { SeedError } from './seed-error.js';

/** Claimed by the process that seeds, so processes starting at once on one database seed it once. */
const SEEDING_SETTING = 'demo.seeding';
/** Written last by the seed: the graph is complete once it is there. */
const DONE_SETTING = 'demo.user_id';
/** A process waiting for another one's seed gives up when the seed wrote no object for this long. */
const STALL_MS = 2 * 60_000;
const POLL_MS = 200;

/** The demo graph to seed: its size, the generator's seed, its present and its density. */
export interface DemoSeed {
  users: number;
  seed: string;
  /** Unix seconds: the graph's present. */
  now: number;
  /** The full demo graph when absent. */
  profile?: SeedProfile;
}

/** How dense a seeded graph is: the full demo graph, or the lean one at this density. */
export type SeedProfile = { kind: 'full' } | ({ kind: 'lean' } & LeanProfile);

/** The default present of a seeded graph: the start of the current day, UTC. */
export function startOfToday(): number {
  return Clock.real().today();
}

/**
 * Seeds the demo graph into an empty database, once however many processes try at the same
 * time: only the one whose claim the store keeps seeds, the others wait until its seed is
 * complete. Answers the counts of this process's seed, 'seeded elsewhere' when it waited for
 * another's, or 'not empty' when the database held a graph already. `shown` names the database
 * in what it writes to standard error.
 */
export async function seedDemo(store: Store, shown: string, demo: DemoSeed): Promise<Record<string, number> | 'seeded elsewhere' | 'not empty'> {
  const claim = randomBytes(16).toString('hex');
  if ((await isEmptyStore(store)) && (await store.initSetting(SEEDING_SETTING, claim)) === claim) {
    process.stderr.write(`Seeding the demo graph into ${shown}…\n`);
    return seedInto(store, demo);
  }
  if ((await store.getSetting(SEEDING_SETTING)) === undefined || (await store.getSetting(DONE_SETTING)) !== undefined) return 'not empty';
  process.stderr.write(`Another process is seeding ${shown}; waiting for it to finish…\n`);
  let lastId = await lastObjectId(store);
  let progressAt = Date.now();
  while ((await store.getSetting(DONE_SETTING)) === undefined) {
    const id = await lastObjectId(store);
    if (id !== lastId) [lastId, progressAt] = [id, Date.now()];
    if (Date.now() - progressAt > STALL_MS) {
      throw new SeedError(
        `another process began seeding ${shown} but wrote nothing for ${STALL_MS / 60_000} minutes; if it was stopped, seed into a new database`,
      );
    }
    await sleep(POLL_MS);
  }
  return 'seeded elsewhere';
}

async function lastObjectId(store: Store): Promise<number> {
  const [sequence] = await store.scanRecords('idSequence', undefined, 1);
  return sequence?.record === 'idSequence' ? sequence.last : 0;
}

/** Seeds with a progress bar (shown only when the work takes more than a second). */
async function seedInto(store: Store, { users, seed, now, profile }: DemoSeed): Promise<Record<string, number>> {
  const progress = createProgress('Seeding the demo graph', process.stderr);
  const onProgress = (done: number, total: number) => progress.update(done, total);
  // The index is built once the graph is written: the bar ends, and a line says what follows.
  const onSearchReindex = (reindex: SearchReindex) => {
    progress.finish();
    const said = describeSearchReindex(reindex);
    process.stderr.write(`${said.charAt(0).toUpperCase()}${said.slice(1)}\n`);
  };
  const result =
    profile?.kind === 'lean'
      ? await seedLeanGraph(store, { users, seed, now, profile, onProgress, onSearchReindex })
      : await seedGraph(store, { users, seed, now, onProgress, onSearchReindex });
  progress.finish();
  return result.counts;
}
