import { createHmac, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../../errors.js';
import type { AppScopedIds } from '../../auth/app-scoped-ids.js';
import type { Position } from '../../store/page-request.js';

/**
 * Cursors are opaque keyset positions. The item id inside is app-scoped (no internal id leaks),
 * and a MAC keyed by the app binds the cursor to its app and edge: a tampered cursor, or one
 * taken from another app or edge, is refused with code 100 instead of paging somewhere odd.
 */
export class CursorCodec {
  /** The cursors written lately on each edge under this key (shared by every codec of the key). */
  private readonly written: Map<string, WrittenOnEdge>;

  constructor(
    private readonly key: string,
    private readonly ids: AppScopedIds,
  ) {
    let written = writtenLately.get(key);
    if (written === undefined) {
      written = new Map();
      writtenLately.set(key, written);
    }
    this.written = written;
  }

  encode(edge: string, position: Position): string {
    const onEdge = this.onEdge(edge);
    let atItem = onEdge.get(position.id2);
    let cursor = atItem?.get(position.time);
    if (cursor === undefined) {
      const body = `${position.time}.${this.ids.scope(position.id2)}`;
      cursor = Buffer.from(`${body}.${this.mac(edge, body)}`).toString('base64url');
      if (atItem === undefined) {
        atItem = new Map();
        onEdge.set(position.id2, atItem);
      }
      atItem.set(position.time, cursor);
      if (++writtenCount > MAX_WRITTEN) forgetWritten();
    }
    return cursor;
  }

  decode(edge: string, cursor: string): Position {
    const text = cursor.length <= 200 ? Buffer.from(cursor, 'base64url').toString() : '';
    const match = /^(-?\d{1,12})\.(\d{1,16})\.([A-Za-z0-9_-]{16})$/.exec(text);
    const id2 = match ? this.ids.unscope(match[2]!) : undefined;
    if (!match || id2 === undefined || !sameMac(match[3]!, this.mac(edge, `${match[1]}.${match[2]}`))) {
      throw GraphError.invalidParameter(`The cursor "${cursor.slice(0, 60)}" is not valid for this edge`);
    }
    return { time: Number(match[1]), id2 };
  }

  /** The MAC of a position's text on an edge. */
  private mac(edge: string, body: string): string {
    return createHmac('sha256', this.key).update(`${edge}|${body}`).digest('base64url').slice(0, 16);
  }

  private onEdge(edge: string): WrittenOnEdge {
    let onEdge = this.written.get(edge);
    if (onEdge === undefined) {
      onEdge = new Map();
      this.written.set(edge, onEdge);
    }
    return onEdge;
  }
}

/** The cursor of each position written on one edge: by item (id2), then by time. */
type WrittenOnEdge = Map<number, Map<number, string>>;

/** Cursors remembered; past this all are forgotten at once, and written anew as they are needed. */
const MAX_WRITTEN = 20_000;

/**
 * Cursors written lately, by app key, edge and position. A cursor depends on nothing else, so a
 * page read again (the same 25 posts, each with its likes) writes its cursors without signing
 * them anew; looked up by numbers, not by a text made for each one, which cost as much to hash.
 */
const writtenLately = new Map<string, Map<string, WrittenOnEdge>>();
let writtenCount = 0;

function forgetWritten(): void {
  // The maps codecs in use hold are emptied in place: a request in progress keeps writing to them.
  for (const edges of writtenLately.values()) for (const onEdge of edges.values()) onEdge.clear();
  writtenLately.clear();
  writtenCount = 0;
}

function sameMac(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
