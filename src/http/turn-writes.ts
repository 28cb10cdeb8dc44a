/**
 * Answers are sent together, at the end of the event loop's turn that made them, once the turn's
 * reads are done (as Redis sends its replies just before it waits for more). A client that has
 * nothing left to read sleeps, and each answer written to it wakes it up again, which the kernel
 * does inside the write: on a virtual machine that wake-up is an interrupt to another core, and
 * for a small answer (`GET /me`) it took about as long as all the rest of the answer's work.
 * Answers written back to back find a client that is already awake. An answer waits no more
 * than the rest of its turn: on an idle server, that is nothing.
 */

/** The writes of answers made in this turn so far, in the order they were made. */
let waiting: Array<() => void> = [];

/** Runs `write` at the end of this turn, with the other answers made in it; `write` must not throw. */
export function writeAtTurnEnd(write: () => void): void {
  if (waiting.length === 0) setImmediate(writeAll);
  waiting.push(write);
}

function writeAll(): void {
  const writes = waiting;
  // An answer made while these are written waits for the next turn.
  waiting = [];
  for (const write of writes) write();
}
