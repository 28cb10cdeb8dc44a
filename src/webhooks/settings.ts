/** How the server treats webhooks; see DEFAULT_WEBHOOK_SETTINGS for the defaults. */
export interface WebhookSettings {
  /** Whether callbacks may be on loopback and private networks (never on this server's own port). */
  allowPrivate: boolean;
  /** Changes that happen within this many milliseconds go out together, one POST per app and object. */
  windowMs: number;
  /** Seconds of graph time a failing delivery is retried for; its subscription then turns inactive. */
  retryFor: number;
  /** First retry delay in seconds; each further one doubles, up to maxDelay, with random jitter. */
  firstDelay: number;
  maxDelay: number;
  /** How long a callback may take to answer, in milliseconds. */
  timeoutMs: number;
  /**
   * Seconds of graph time a process holds the rows it claimed. Another process takes them over
   * only after that, so a process that died mid-way loses nothing, and one that lives sends alone.
   */
  leaseSeconds: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivate: false,
  windowMs: 1000,
  retryFor: 24 * 3600,
  firstDelay: 15,
  maxDelay: 3600,
  timeoutMs: 10_000,
  leaseSeconds: 60,
};

/** The delay before retry number `failures` (1 for the first retry): exponential, capped, with ±25% jitter. */
export function retryDelay(settings: WebhookSettings, failures: number, random: () => number = Math.random): number {
  const base = Math.min(settings.maxDelay, settings.firstDelay * 2 ** Math.min(failures - 1, 30));
  return Math.max(1, Math.round(base * (0.75 + random() * 0.5)));
}
