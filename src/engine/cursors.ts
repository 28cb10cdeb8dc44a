import { createHmac, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { AppScopedIds } from '../auth/app-scoped-ids.js';
import type { Position } from '../store/store.js';

/**
 * Cursors are opaque keyset positions. The item id inside is app-scoped (no internal id leaks),
 * and a MAC keyed by the app binds the cursor to its app and edge: a tampered cursor, or one
 * taken from another app or edge, is refused with code 100 instead of paging somewhere odd.
 */
export class CursorCodec {
  constructor(
    private readonly key: string,
    private readonly ids: AppScopedIds,
  ) {}

  encode(edge: string, position: Position): string {
    const body = `${position.time}.${this.ids.scope(position.id2)}`;
    return Buffer.from(`${body}.${this.mac(edge, body)}`).toString('base64url');
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

  private mac(edge: string, body: string): string {
    const signed = `${edge}|${body}`;
    const memoKey = `${this.key}|${signed}`;
    let mac = macs.get(memoKey);
    if (mac === undefined) {
      mac = createHmac('sha256', this.key).update(signed).digest('base64url').slice(0, 16);
      if (macs.size >= MAX_MACS) macs.delete(macs.keys().next().value!);
      macs.set(memoKey, mac);
    }
    return mac;
  }
}

/** MACs remembered; past this the oldest are forgotten first. */
const MAX_MACS = 20_000;

/**
 * MACs made lately, by app key, edge and position. A MAC depends on nothing else, so a page read
 * again (the same 25 posts, each with its likes) signs its cursors without computing them anew.
 */
const macs = new Map<string, string>();

function sameMac(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
