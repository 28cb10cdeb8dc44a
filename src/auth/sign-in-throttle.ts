import type { Clock } from '../clock/clock.js';
/**
 * Slows password guessing in the sign-in dialog beyond what scrypt's cost does: after too many
 * failed attempts for one email, or from one client address, within a sliding window, further
 * attempts are refused until the oldest of those failures leaves the window. Counts live in
 * memory, so each server process keeps its own and a restart forgets them.
 */

export interface SignInLimits {
  /** Failed attempts for one email within the window before that email is refused. */
  perEmail: number;
  /** Failed attempts from one client address within the window before that address is refused. */
  perAddress: number;
  /** Seconds. */
  window: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perEmail: 10, perAddress: 50, window: 15 * 60 };

/** How many emails, and separately addresses, are remembered; beyond it the least recently failed is forgotten. */
const DEFAULT_MAX_KEYS = 10_000;
/** The longest email the dialog accepts; a longer form field is cut to it, so no key grows huge. */
const MAX_EMAIL_KEY = 254;

export type Attempt = { allowed: false; retryAfter: number } | { allowed: true; succeeded: () => void };

export class SignInThrottle {
  private readonly byEmail: FailureLog;
  private readonly byAddress: FailureLog;

  constructor(
    limits: SignInLimits,
    private readonly clock: Clock,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`sign-in limit ${name} must be a positive whole number, not ${value}`);
    }
    this.byEmail = new FailureLog(limits.perEmail, limits.window, maxKeys);
    this.byAddress = new FailureLog(limits.perAddress, limits.window, maxKeys);
  }

  /**
   * Starts a sign-in attempt. When allowed, it counts as failed at once, so attempts sent
   * together cannot all slip under the limit while their passwords are being checked;
   * `succeeded` then forgets the email's failures and takes this attempt back from the address.
   */
  attempt(email: string, address: string): Attempt {
    const now = this.clock.now();
    const emailKey = email.trim().toLowerCase().slice(0, MAX_EMAIL_KEY);
    const retryAfter = Math.max(this.byEmail.wait(emailKey, now), this.byAddress.wait(address, now));
    if (retryAfter > 0) return { allowed: false, retryAfter };
    this.byEmail.add(emailKey, now);
    this.byAddress.add(address, now);
    return {
      allowed: true,
      succeeded: () => {
        this.byEmail.forget(emailKey);
        this.byAddress.remove(address, now);
      },
    };
  }
}

/** Failure times per key, newest last, keeping no more per key than the limit needs. */
class FailureLog {
  // A Map keeps insertion order: re-inserting a key on each failure puts the least recently failed first.
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly window: number,
    private readonly maxKeys: number,
  ) {}

  /** Seconds until the key has fewer than `limit` failures within the window; 0 when it has now. */
  wait(key: string, now: number): number {
    const recent = this.recent(key, now);
    return recent.length < this.limit ? 0 : recent[recent.length - this.limit]! + this.window - now;
  }

  add(key: string, now: number): void {
    const recent = [...this.recent(key, now), now].slice(-this.limit);
    this.times.delete(key);
    this.times.set(key, recent);
    if (this.times.size > this.maxKeys) this.times.delete(this.times.keys().next().value!);
  }

  /** Takes back one failure recorded at `time`. */
  remove(key: string, time: number): void {
    const list = this.times.get(key);
    const index = list?.lastIndexOf(time) ?? -1;
    if (index >= 0) list!.splice(index, 1);
  }

  forget(key: string): void {
    this.times.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.times.get(key) ?? []).filter((time) => time > now - this.window);
  }
}
