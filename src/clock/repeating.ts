/**
 * Work done again and again, a period apart, in the background of a server: never two rounds at
 * once, and a stop that waits for the round under way, so a store is never closed under it.
 * Its timer never keeps a process alive on its own.
 */
export class Repeating {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private active = false;

  /**
   * `round` is awaited, and what it throws goes to `onError`; `firstAtStart` runs a round as
   * soon as it starts rather than a period later.
   */
  constructor(
    private readonly round: () => Promise<void>,
    private readonly everyMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly firstAtStart = false,
  ) {}

  /** True once stopped (and before the start): a long round may end early. */
  get stopped(): boolean {
    return !this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    if (this.firstAtStart) this.run();
    else this.schedule();
  }

  /** Stops after the round under way, if any. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await this.running;
  }

  private run(): void {
    this.running = this.round()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  private schedule(): void {
    if (!this.active) return;
    this.timer = setTimeout(() => this.run(), this.everyMs);
    this.timer.unref();
  }
}
