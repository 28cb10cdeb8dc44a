/**
 * What a line of own data holds before the type's own checks see it: its times, and the keys its
 * ref fields name (turned into internal ids before the values are checked as a write would be).
 */
import type { FieldPlan } from './plan.js';

/** Unix seconds of an ISO-8601 time or a number of seconds; undefined when it is neither. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Keys a field's value names, as [type, key] pairs (refs and lists of refs). */
export function refKeys(field: FieldPlan, value: unknown): Array<[string, string]> {
  if (field.refTo === undefined || value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item) => typeof item === 'string' || typeof item === 'number').map((item) => [field.refTo!, String(item)]);
}
