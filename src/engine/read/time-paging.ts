import type { Json } from '../../ids.js';

export interface TimePage {
  /** An absolute link to the edge with the request's parameters and these. */
  link(query: Record<string, string>): string;
  /** The page's first (newest) and last (oldest) items, and their cursors. */
  first: { time: number };
  last: { time: number };
  before: string;
  after: string;
  page: { rows: readonly unknown[]; more: boolean };
  /** The request read backwards (a `previous` link). */
  backwards: boolean;
}

/**
 * Paging as v2.0–v2.2 wrote it for feeds, photos, videos and events: no `cursors`; `next` reads on
 * from the oldest item's time (`until`), `previous` back from the newest one's (`since`, with
 * `__previous=1`), and is there on every page. Both carry the exact position as
 * `__paging_token`, so a page never skips or repeats an item of the same second.
 */
export function timePaging({ link, first, last, before, after, page, backwards }: TimePage): Json {
  const paging: Json = { previous: link({ since: String(first.time), __paging_token: before, __previous: '1' }) };
  if (backwards || page.more) paging.next = link({ until: String(last.time), __paging_token: after });
  return paging;
}
