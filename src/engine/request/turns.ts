/**
 * Turn-taking on the event loop between pieces of long work (a heavy query's rendering, a large
 * answer's JSON). Each works a short slice, then waits for its turn behind the others that
 * paused; a new request is read and answered between any two slices.
 */
import { performance } from 'node:perf_hooks';

/**
 * How long a piece of work runs before it lets others in. Short enough that a cheap request waits
 * at most about one of these behind all the heavy ones together; long enough that pausing costs little.
 */
export const SLICE_MS = 3;

/** Paused work, in the order it paused. */
const waiting: Array<() => void> = [];
let turnScheduled = false;

/**
 * Waits for the next turn. One paused piece of work resumes per turn of the event loop, in the
 * order they paused, and every turn polls for I/O first: however much heavy work is under way,
 * a new request is read and answered after at most one slice of one of them.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    scheduleTurn();
  });
}

function scheduleTurn(): void {
  if (turnScheduled || waiting.length === 0) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    waiting.shift()!();
    // Scheduled from inside a check phase, the next turn comes after the loop's next I/O poll.
    scheduleTurn();
  });
}

/** Work done in slices: `pace` waits for a turn once a slice has been worked since the last one. */
export class Slices {
  private sliceStart = performance.now();

  async pace(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
