/**
 * Progress of a seeding run in abstract units: each phase is given a share of the total up front
 * (roughly its share of the writes), so the reported total never changes while the run goes on.
 */
export class SeedProgress {
  private done = 0;
  private lastReported = -1;

  constructor(
    readonly total: number,
    private readonly onProgress: ((done: number, total: number) => void) | undefined,
  ) {}

  advance(units: number): void {
    this.done = Math.min(this.total, this.done + units);
  }

  report(): void {
    const done = Math.floor(this.done);
    if (!this.onProgress || done === this.lastReported) return;
    this.lastReported = done;
    this.onProgress(done, this.total);
  }

  /** Marks the end of the run, whatever rounding left over. */
  complete(): void {
    this.done = this.total;
    this.report();
  }
}
