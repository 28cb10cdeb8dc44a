const SECONDS_PER_DAY = 86_400;

/**
 * The one clock of the server. Everything that reads graph time (token expiry, codes, created and
 * updated times, `since`/`until` defaults, rate-limit windows) asks it, so tests can freeze or
 * advance time instead of waiting for it. It runs on real time, shifted by an offset, or stands
 * still at a frozen instant.
 */
export type ClockSetting = { frozenAt: number } | { offset: number };

export class Clock {
  private setting: ClockSetting;

  private constructor(setting: ClockSetting) {
    this.setting = setting;
  }

  /** Real time. */
  static real(): Clock {
    return new Clock({ offset: 0 });
  }

  /** Time standing still at `seconds` (Unix seconds) until moved. */
  static frozenAt(seconds: number): Clock {
    return new Clock({ frozenAt: seconds });
  }

  /** Unix seconds. */
  now(): number {
    return 'frozenAt' in this.setting ? this.setting.frozenAt : Math.floor(Date.now() / 1000) + this.setting.offset;
  }

  /** Unix seconds of the start (midnight, UTC) of the clock's current day. */
  today(): number {
    return Math.floor(this.now() / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  }

  /** Whether time stands still. */
  get frozen(): boolean {
    return 'frozenAt' in this.setting;
  }

  /** Stops time at `seconds`. */
  freeze(seconds: number): void {
    this.setting = { frozenAt: seconds };
  }

  /** Moves time forwards (or back, with a negative number) by `seconds`, frozen or running. */
  advance(seconds: number): void {
    this.setting = 'frozenAt' in this.setting ? { frozenAt: this.setting.frozenAt + seconds } : { offset: this.setting.offset + seconds };
  }

  /** Back to real time. */
  resume(): void {
    this.setting = { offset: 0 };
  }

  /** What the clock is set to, to share it with other processes. */
  get current(): ClockSetting {
    return { ...this.setting };
  }

  /** Takes another process's setting. */
  adopt(setting: ClockSetting): void {
    this.setting = { ...setting };
  }
}
