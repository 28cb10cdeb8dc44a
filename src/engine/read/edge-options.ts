import { GraphError } from '../../errors.js';
import type { CostLimits } from '../request/cost-budget.js';

/** How much of an edge to read, from query parameters (`limit=5`) or modifiers (`.limit(5)`) alike. */
export interface EdgeOptions {
  limit: number;
  summary: boolean;
  since?: number;
  until?: number;
  after?: string;
  before?: string;
  /** Where the page starts in an offset-paged edge's links (v2.0–v2.2 friends): shown, never used to seek. */
  offset?: number;
  /** As written; only edges declared `ordered` act on it. */
  order?: EdgeOrder;
  /** `stream` lists a whole conversation, replies included; only edges with a stream association act on it. */
  filter?: 'toplevel' | 'stream';
  /** As written; only edges declared `byType` act on it (the picture edge reads its own). */
  type?: string;
}

export type EdgeOrder = 'chronological' | 'reverse_chronological' | 'ranked';
const ORDERS: readonly EdgeOrder[] = ['chronological', 'reverse_chronological', 'ranked'];
const FILTERS = ['toplevel', 'stream'] as const;

/** Page sizes, and the cost limits of the whole request. */
export interface PageLimits extends CostLimits {
  defaultLimit: number;
  maxLimit: number;
}

/** Modifiers Loom understands on an edge; anything else is a client mistake worth naming. */
const EDGE_MODIFIERS = new Set(['limit', 'summary', 'since', 'until', 'after', 'before', 'order', 'filter', 'as', 'type', 'redirect', 'width', 'height']);

export function checkModifiers(fieldName: string, modifiers: Record<string, string>): void {
  for (const name of Object.keys(modifiers)) {
    if (!EDGE_MODIFIERS.has(name)) {
      throw GraphError.invalidParameter(`Unknown modifier (${name}) on field (${fieldName})`);
    }
  }
}

export function readEdgeOptions(raw: Record<string, string | undefined>, limits: PageLimits): EdgeOptions {
  const options: EdgeOptions = { limit: readLimit(raw.limit, limits), summary: readSummary(raw.summary) };
  const since = readTime('since', raw.since);
  const until = readTime('until', raw.until);
  if (since !== undefined) options.since = since;
  if (until !== undefined) options.until = until;
  // Offset-paged links (v2.0–v2.2) carry the cursor as `__after_id` / `__before_id`; time-paged
  // ones as `__paging_token`, backwards with `__previous=1`.
  const backwards = raw.__previous === '1';
  const after = raw.after || raw.__after_id || (backwards ? undefined : raw.__paging_token);
  const before = raw.before || raw.__before_id || (backwards ? raw.__paging_token : undefined);
  if (after !== undefined && after !== '') options.after = after;
  if (before !== undefined && before !== '') options.before = before;
  if (raw.offset !== undefined && raw.offset !== '') options.offset = readOffset(raw.offset);
  const order = readChoice('order', raw.order, ORDERS);
  const filter = readChoice('filter', raw.filter, FILTERS);
  if (order !== undefined) options.order = order;
  if (filter !== undefined) options.filter = filter;
  if (raw.type !== undefined && raw.type.trim() !== '') options.type = raw.type.trim().toLowerCase();
  if (options.after !== undefined && options.before !== undefined) {
    throw GraphError.invalidParameter('The parameters after and before cannot be used together');
  }
  return options;
}

function readOffset(value: string): number {
  if (!/^\s*\d{1,9}\s*$/.test(value)) throw GraphError.invalidParameter(`The parameter offset must be a non-negative integer, not "${clip(value)}"`);
  return Number(value);
}

function readLimit(value: string | undefined, limits: PageLimits): number {
  if (value === undefined || value === '') return limits.defaultLimit;
  if (!/^\s*\d{1,15}\s*$/.test(value)) {
    throw GraphError.invalidParameter(`The parameter limit must be a non-negative integer, not "${clip(value)}"`);
  }
  // The real service clamps an oversized limit rather than refusing it.
  return Math.min(Number(value), limits.maxLimit);
}

function readSummary(value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
    case 'total_count':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw GraphError.invalidParameter(`The parameter summary must be true or false, not "${clip(value)}"`);
  }
}

function readChoice<T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined || value === '') return undefined;
  const chosen = choices.find((choice) => choice === value.trim().toLowerCase());
  if (chosen === undefined) {
    throw GraphError.invalidParameter(`The parameter ${name} must be one of ${choices.join(', ')}, not "${clip(value)}"`);
  }
  return chosen;
}

/** UNIX seconds, or any date the JavaScript date parser reads (ISO dates, "2015-07-01"). */
function readTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = value.trim();
  if (/^-?\d{1,12}$/.test(text)) return Number(text);
  const parsed = text.length <= 64 ? Date.parse(text) : NaN;
  if (Number.isNaN(parsed)) {
    throw GraphError.invalidParameter(`The parameter ${name} must be a UNIX timestamp or a date, not "${clip(value)}"`);
  }
  return Math.floor(parsed / 1000);
}

function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}...` : value;
}
