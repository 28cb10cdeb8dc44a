/**
 * A one-line progress report for long CLI tasks, with the rate so far and the time left at it. Quick tasks print nothing at all: output only
 * starts once the work has run for more than a second. On a terminal the line is redrawn in
 * place (at most ten times a second); in a log or pipe a plain line is written every few
 * seconds, so logs stay readable.
 */

export interface Progress {
  update(done: number, total: number): void;
  /** Ends the report: the final state on its own line (when anything was shown at all). */
  finish(): void;
}

/** What the report needs of an output stream (a `process.stderr`-like stream). */
type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

const QUIET_MS = 1000;
const TTY_REDRAW_MS = 100;
const LOG_LINE_MS = 5000;
const BAR_WIDTH = 30;

function percent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.floor((done / total) * 100));
}

function counts(done: number, total: number): string {
  return `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
}

function duration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

/** Units per second so far and the time left at that rate; nothing before the first unit or once done. */
function pace(done: number, total: number, elapsedMs: number): { rate: string; eta: string } | undefined {
  if (done <= 0 || done >= total || elapsedMs <= 0) return undefined;
  const perSecond = done / (elapsedMs / 1000);
  return { rate: `${Math.round(perSecond).toLocaleString('en-US')}/s`, eta: `ETA ${duration((total - done) / perSecond)}` };
}

function barLine(label: string, done: number, total: number, columns: number, elapsedMs: number): string {
  const pct = percent(done, total);
  const speed = pace(done, total, elapsedMs);
  const tail = ` ${String(pct).padStart(3)}% ${counts(done, total)}${speed ? ` ${speed.rate} ${speed.eta}` : ''}`;
  // The bar shrinks on narrow terminals so that the line never wraps.
  const width = Math.max(0, Math.min(BAR_WIDTH, columns - label.length - tail.length - 4));
  const filled = Math.round((pct / 100) * width);
  const bar = width > 0 ? ` [${'#'.repeat(filled)}${'.'.repeat(width - filled)}]` : '';
  return `${label}${bar}${tail}`.slice(0, Math.max(1, columns - 1));
}

function logLine(label: string, done: number, total: number, elapsedMs: number): string {
  const speed = pace(done, total, elapsedMs);
  return `${label}: ${percent(done, total)}% (${counts(done, total)}${speed ? `, ${speed.rate}, ${speed.eta}` : ''})\n`;
}

/**
 * `clock` gives milliseconds; tests pass their own to control time.
 */
export function createProgress(
  label: string,
  stream: ProgressStream = process.stderr,
  clock: () => number = Date.now,
): Progress {
  const startedAt = clock();
  const isTty = stream.isTTY === true;
  let done = 0;
  let total = 0;
  let lastOutputAt = -Infinity;
  let finished = false;

  const draw = (): void => {
    // A pseudo-terminal may report 0 columns; assume the common width then.
    const elapsed = clock() - startedAt;
    if (isTty) stream.write(`\r${barLine(label, done, total, stream.columns || 80, elapsed)}\x1b[K`);
    else stream.write(logLine(label, done, total, elapsed));
  };

  return {
    update(nextDone: number, nextTotal: number): void {
      if (finished) return;
      done = nextDone;
      total = nextTotal;
      const now = clock();
      if (now - startedAt <= QUIET_MS) return;
      const gap = isTty ? TTY_REDRAW_MS : LOG_LINE_MS;
      // The first log line waits a full gap from the start too, so a log of a 2-second run
      // holds only the final line.
      const since = isTty ? lastOutputAt : Math.max(lastOutputAt, startedAt);
      if (now - since < gap) return;
      lastOutputAt = now;
      draw();
    },
    finish(): void {
      if (finished) return;
      finished = true;
      if (clock() - startedAt <= QUIET_MS) return;
      draw();
      if (isTty) stream.write('\n');
    },
  };
}
