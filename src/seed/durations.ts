/** Lengths of time in seconds, the unit of every time the seed writes. */
export const HOUR = 3600;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;
