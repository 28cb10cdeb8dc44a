import type { EdgeOptions } from './edge-options.js';
import type { Json } from '../../ids.js';

export interface OffsetPage {
  /** An absolute link to the edge with the request's parameters and these. */
  link(query: Record<string, string>): string;
  /** Cursors of the page's first and last items. */
  before: string;
  after: string;
  page: { rows: readonly unknown[]; more: boolean };
  options: EdgeOptions;
  /** The request named a cursor (it is not the first page); read backwards with `__before_id`. */
  positioned: boolean;
  backwards: boolean;
}

/**
 * Paging as v2.0–v2.2 wrote it for friends: no `cursors`; `next` counts how far the list has been
 * read (`offset`) and carries the position as `__after_id`, `previous` as `__before_id`. Loom
 * seeks by the position, so an offset never makes a page skip or repeat a friend added meanwhile.
 */
export function offsetPaging({ link, before, after, page, options, positioned, backwards }: OffsetPage): Json {
  const offset = options.offset ?? 0;
  const limit = options.limit;
  const paging: Json = {};
  if (positioned && (!backwards || page.more)) {
    paging.previous = link({ offset: String(Math.max(0, offset - limit)), __before_id: before });
  }
  if (backwards || page.more) paging.next = link({ offset: String(offset + page.rows.length), __after_id: after });
  return paging;
}
