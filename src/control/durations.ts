import { GraphError } from '../errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
/** The longest move of the clock one call may ask for: a hundred years. */
const MAX_SECONDS = 100 * 366 * 86_400;

/** `90`, `"90s"`, `"2h"`, `"1h30m"`, `"-1d"`: a whole number of seconds. */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) <= MAX_SECONDS) return value;
  if (typeof value === 'string') {
    const match = /^(-?)((?:\d{1,9}[smhdw])+|\d{1,12})$/.exec(value.trim());
    if (match) {
      const parts = [...match[2]!.matchAll(/(\d+)([smhdw]?)/g)];
      const seconds = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_SECONDS[unit || 's']!, 0);
      if (seconds <= MAX_SECONDS) return match[1] ? -seconds : seconds;
    }
  }
  throw GraphError.invalidParameter('advance must be a duration such as 90, "90s", "15m", "2h", "1d" or "1h30m" (at most a hundred years)');
}

/** Unix seconds, or a time as Loom writes them (`2026-01-01T00:00:00+0000`) or any ISO 8601 form. */
export function parseTime(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const text = value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
    if (Number.isFinite(ms) && ms >= 0) return Math.floor(ms / 1000);
    if (/^\d{1,12}$/.test(text)) return Number(text);
  }
  throw GraphError.invalidParameter('now must be Unix seconds or a time such as "2026-01-01T00:00:00+0000"');
}
