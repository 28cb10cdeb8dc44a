import { Clock } from '../clock/clock.js';
import { Repeating } from '../clock/repeating.js';
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
  private readonly repeating: Repeating;

  constructor(
    private readonly store: Store,
    private readonly media: MediaStore,
    private readonly owner: FolderOwner,
    private readonly settings: MediaSweepSettings,
    private readonly report: (outcome: SweepResult | Error) => void,
  ) {
    const onError = (error: unknown) => this.report(error instanceof Error ? error : new Error(String(error)));
    this.repeating = new Repeating(() => this.sweep(), settings.everyMs, onError, true);
  }

  start(): void {
    this.repeating.start();
  }

  /** Stops after the sweep under way, if any. */
  stop(): Promise<void> {
    return this.repeating.stop();
  }

  private async sweep(): Promise<void> {
    const olderThan = Clock.real().now() * 1000 - this.settings.graceMs;
    const result = await sweepMedia(this.store, this.media, { olderThan, keptBefore: keptBefore(this.owner) });
    if (result.published + result.removed > 0) this.report(result);
  }
}
