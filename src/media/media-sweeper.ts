import { Clock } from '../clock/clock.js';
import type { Store } from '../store/store.js';
import type { MediaStore } from './media-store.js';
import { keptBefore, type FolderOwner } from './media-owner.js';
import { sweepMedia, type SweepResult } from './media-sweep.js';

export interface MediaSweepSettings {
  /** Milliseconds between sweeps; the first runs as the server starts. */
  everyMs: number;
  /** Milliseconds a file must be old before it may be removed: an upload may be writing it now. */
  graceMs: number;
}

export const DEFAULT_MEDIA_SWEEP: MediaSweepSettings = { everyMs: 10 * 60_000, graceMs: 60_000 };

/**
 * Sweeps the server's own media folder as it starts and then every period, so what a crash or a
 * kill left (staged files of committed rows, files nothing points at) is settled while it runs,
 * not at the next restart. Ages are read on the wall clock, not the server's Clock, which may
 * stand still or run ahead for graph time: the system stamps files in real time.
 */
export class MediaSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly store: Store,
    private readonly media: MediaStore,
    private readonly owner: FolderOwner,
    private readonly settings: MediaSweepSettings,
    private readonly report: (outcome: SweepResult | Error) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.run();
  }

  /** Stops after the sweep under way, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private run(): void {
    const olderThan = Clock.real().now() * 1000 - this.settings.graceMs;
    this.running = sweepMedia(this.store, this.media, { olderThan, keptBefore: keptBefore(this.owner) })
      .then((result) => {
        if (result.published + result.removed > 0) this.report(result);
      })
      .catch((error: unknown) => this.report(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        this.timer = setTimeout(() => this.run(), this.settings.everyMs);
        this.timer.unref();
      });
  }
}
