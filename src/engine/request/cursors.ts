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
  constructor(
    private readonly key: string,
    private readonly ids: AppScopedIds,
  ) {}

  encode(edge: string, position: Position): string {
    return this.signed(edge, `${position.time}.${this.ids.scope(position.id2)}`).cursor;
  }

  decode(edge: string, cursor: string): Position {
    const text = cursor.length <= 200 ? Buffer.from(cursor, 'base64url').toString() : '';
    const match = /^(-?\d{1,12})\.(\d{1,16})\.([A-Za-z0-9_-]{16})$/.exec(text);
    const id2 = match ? this.ids.unscope(match[2]!) : undefined;
    if (!match || id2 === undefined || !sameMac(match[3]!, this.signed(edge, `${match[1]}.${match[2]}`).mac)) {
      throw GraphError.invalidParameter(`The cursor "${cursor.slice(0, 60)}" is not valid for this edge`);
    }
    return { time: Number(match[1]), id2 };
  }

  /** The MAC of a position on an edge, and the cursor it makes. */
  private signed(edge: string, body: string): Signed {
    const text = `${edge}|${body}`;
    const memoKey = `${this.key}|${text}`;
    let signed = signedLately.get(memoKey);
    if (signed === undefined) {
      const mac = createHmac('sha256', this.key).update(text).digest('base64url').slice(0, 16);
      signed = { mac, cursor: Buffer.from(`${body}.${mac}`).toString('base64url') };
      if (signedLately.size >= MAX_SIGNED) signedLately.delete(signedLately.keys().next().value!);
      signedLately.set(memoKey, signed);
    }
    return signed;
  }
}

interface Signed {
  mac: string;
  cursor: string;
}

/** Positions remembered; past this the oldest are forgotten first. */
const MAX_SIGNED = 20_000;

/**
 * Positions signed lately, by app key, edge and position, with the cursor each makes. Neither
 * depends on anything else, so a page read again (the same 25 posts, each with its likes) writes
 * its cursors without computing them anew.
 */
const signedLately = new Map<string, Signed>();

function sameMac(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
