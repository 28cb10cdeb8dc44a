import { randomBytes } from 'node:crypto';
import { GraphError } from '../errors.js';
import { LIVE_SETTING_PREFIX, SNAPSHOT_NAME, type SnapshotInfo } from '../store/snapshots.js';
import type { Store } from '../store/store.js';
import type { StoreVersions } from '../store/admin-store.js';
import { Clock, type ClockSetting } from '../clock/clock.js';
import type { MediaStore } from '../media/media-store.js';
import { removeUnreferenced } from '../media/media-sweep.js';
import { faultError, matches, parseFault, type Fault, type FaultTarget } from './faults.js';
import { Journal } from './journal.js';

/**
 * The test control plane: the state a test steers (the clock, faults), the request journal, and
 * snapshots of the graph. What every process must agree on is kept in one live setting of the
 * store, which each process reads again before a request once the store's auth version (which
 * a live setting's change moves) has moved: a change made through one process is what the next
 * request to any other sees, and a request pays nothing for it when nothing changed.
 */

/** Shared by every process on the database; survives graph restores (see LIVE_SETTING_PREFIX). */
interface LiveState {
  /** Changes with every write, so a process knows when to take the state again. */
  version: string;
  /** Absent: each process's own clock as it was configured at start. */
  clock?: ClockSetting;
  faults: Fault[];
}

const LIVE_KEY = `${LIVE_SETTING_PREFIX}control`;
/** The mark of the graph as the server started; its leading dot keeps it out of the list. */
const START_SNAPSHOT = '.start';

/** What a matching fault does to one request. */
export interface FaultEffect {
  delayMs: number;
  error: GraphError | undefined;
}

export class ControlPlane {
  readonly journal: Journal;
  private readonly startClock: ClockSetting;
  /** The live state as this process last took it. */
  private state: LiveState | undefined;
  /** The store's auth version when the live state was last read. */
  private storeVersion: number | undefined;
  /** Changes of this process run one after another, so none overwrites another's. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    readonly clock: Clock,
    /** The server's media folder, where the files of undone uploads go from. */
    private readonly media: MediaStore,
    journalSize?: number,
  ) {
    this.journal = new Journal(journalSize);
    this.startClock = clock.current;
  }

  /**
   * Records the graph as it is now as the state `reset` goes back to, and starts with no faults
   * and each process's own clock. The serving command calls it once, before any process serves.
   */
  async markStart(): Promise<void> {
    // A mark, not a copy: a reset undoes what was written since, and a start copies nothing.
    await this.store.markSnapshot(START_SNAPSHOT);
    await this.change((state) => {
      delete state.clock;
      state.faults = [];
    });
  }

  /**
   * Takes what other processes changed, and gives the store's versions it read, so the request
   * that asked reads them no second time to check its token.
   */
  async sync(): Promise<StoreVersions> {
    // Read before the state: a change between the two reads shows as a newer version next time.
    const versions = await this.store.versions();
    const version = versions.auth;
    if (version === this.storeVersion) return versions;
    const text = await this.store.getSetting(LIVE_KEY);
    this.storeVersion = version;
    if (text !== undefined) {
      const state = JSON.parse(text) as LiveState;
      if (state.version !== this.state?.version) this.adopt(state);
    }
    return versions;
  }

  // The clock.

  async freezeClock(seconds: number): Promise<void> {
    await this.change((state) => void (state.clock = { frozenAt: seconds }));
  }

  async advanceClock(seconds: number): Promise<void> {
    await this.change((state) => {
      const setting = state.clock ?? this.clock.current;
      state.clock = 'frozenAt' in setting ? { frozenAt: setting.frozenAt + seconds } : { offset: setting.offset + seconds };
    });
  }

  async realClock(): Promise<void> {
    await this.change((state) => void (state.clock = { offset: 0 }));
  }

  // Faults.

  async addFault(body: unknown): Promise<Fault> {
    let added: Fault | undefined;
    await this.change((state) => {
      added = parseFault(body, state.faults.length);
      state.faults.push(added);
    });
    return added!;
  }

  listFaults(): Fault[] {
    return (this.state?.faults ?? []).map((fault) => ({ ...fault, match: { ...fault.match } }));
  }

  /** Removes one fault (answers whether it existed), or all of them without an id. */
  async deleteFaults(id?: string): Promise<boolean> {
    let found = false;
    await this.change((state) => {
      const before = state.faults.length;
      state.faults = id === undefined ? [] : state.faults.filter((fault) => fault.id !== id);
      found = id === undefined || state.faults.length < before;
    });
    return found;
  }

  /**
   * The first active fault for this request that fires this time, counted as fired. None most of
   * the time: then undefined at once, and the request does not wait for a turn to learn it.
   */
  fire(target: FaultTarget): Promise<FaultEffect | undefined> | undefined {
    if (!this.state?.faults.some((fault) => matches(fault, target))) return undefined;
    return this.fireMatching(target);
  }

  private async fireMatching(target: FaultTarget): Promise<FaultEffect | undefined> {
    let fired: Fault | undefined;
    await this.change((state) => {
      fired = state.faults.find((fault) => matches(fault, target) && Math.random() < (fault.probability ?? 1));
      if (fired) fired.fired += 1;
    });
    if (!fired) return undefined;
    return { delayMs: fired.delay_ms ?? 0, error: faultError(fired, this.clock.now()) };
  }

  // Snapshots and reset.

  /** Back to the graph the server started with, its clock, no faults and an empty journal. */
  async reset(): Promise<void> {
    const undone = await this.store.restoreSnapshot(START_SNAPSHOT);
    if (!undone) throw new GraphError(100, '(#100) This server recorded no start state to reset to', { status: 409 });
    await removeUnreferenced(this.store, this.media, undone.mediaKeys);
    // The whole live state is the start's again: written as it is, without reading what it was.
    await this.replace({ faults: [] });
    this.journal.clear();
  }

  async saveSnapshot(name: unknown): Promise<SnapshotInfo> {
    const checked = snapshotName(name);
    const createdTime = this.clock.now();
    await this.store.saveSnapshot(checked, createdTime);
    return { name: checked, createdTime };
  }

  async restoreSnapshot(name: string): Promise<void> {
    const undone = await this.store.restoreSnapshot(snapshotName(name));
    if (!undone) throw unknownSnapshot(name);
    await removeUnreferenced(this.store, this.media, undone.mediaKeys);
    // Other processes learn of the restore with the next version of the live state.
    await this.rewrite();
  }

  async listSnapshots(): Promise<SnapshotInfo[]> {
    return (await this.store.listSnapshots()).filter((snapshot) => !snapshot.name.startsWith('.'));
  }

  async deleteSnapshot(name: string): Promise<void> {
    if (!(await this.store.deleteSnapshot(snapshotName(name)))) throw unknownSnapshot(name);
  }

  private adopt(state: LiveState): void {
    this.state = state;
    this.clock.adopt(state.clock ?? this.startClock);
  }

  /** Reads the live state, changes it and writes it back as a new version, then uses it here. */
  private change(mutate: (state: LiveState) => void): Promise<void> {
    return this.write(async () => {
      const text = await this.store.getSetting(LIVE_KEY);
      const state: LiveState = text === undefined ? { version: '', faults: [] } : (JSON.parse(text) as LiveState);
      mutate(state);
      return state;
    });
  }

  /** Writes `state` as the live state's new version, whatever it was, then uses it here. */
  private replace(state: Omit<LiveState, 'version'>): Promise<void> {
    return this.write(async () => ({ ...state, version: '' }));
  }

  /**
   * Writes the live state as this process knows it as a new version, without reading it: the
   * request began by taking what other processes changed (sync), and a change of this process
   * queued before it has been taken when this runs.
   */
  private rewrite(): Promise<void> {
    return this.write(async () => ({ faults: [], ...this.state, version: '' }));
  }

  /** Writes the state `next` makes as a new version, one write at a time in this process, then uses it here. */
  private write(next: () => Promise<LiveState>): Promise<void> {
    const run = async () => {
      const state = await next();
      state.version = randomBytes(8).toString('hex');
      await this.store.setSetting(LIVE_KEY, JSON.stringify(state));
      this.adopt(state);
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }
}

/**
 * The servers' clock as a command outside them sees it (`loom token`, `loom app`): real time,
 * unless the control API froze or moved it.
 */
export async function sharedClock(store: Store): Promise<Clock> {
  const clock = Clock.real();
  const text = await store.getSetting(LIVE_KEY);
  const setting = text === undefined ? undefined : (JSON.parse(text) as LiveState).clock;
  if (setting) clock.adopt(setting);
  return clock;
}

function snapshotName(name: unknown): string {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name) || name.startsWith('.')) {
    throw GraphError.invalidParameter('A snapshot name is 1 to 64 letters, digits, ".", "_" or "-", not starting with "."');
  }
  return name;
}

function unknownSnapshot(name: string): GraphError {
  return new GraphError(100, `(#100) No snapshot is named ${JSON.stringify(name.slice(0, 80))}`, { status: 404 });
}
