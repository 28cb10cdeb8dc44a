import { Slices } from '../engine/request/turns.js';

/**
 * Values with fewer parts than this are written by JSON.stringify in one go: well under a
 * millisecond of work, and most answers are of this size.
 */
export const PARTS_IN_ONE_GO = 2000;

/**
 * The JSON text of an answer, byte for byte what `JSON.stringify(value, null, indent)` writes,
 * made in slices that let other requests in between. A large answer (a megabyte of aliased
 * edges) would otherwise hold the event loop for tens of milliseconds in one block: here each
 * part small enough is written in one go, a larger one is opened and its members written in
 * turn, pausing whenever a slice of work is done. A value written in one go is given at once,
 * not as a promise: most answers are small, and need not wait for a turn of the microtask queue.
 */
export function jsonText(value: unknown, indent = 0): string | Promise<string> {
  if (!isOpenable(value) || partsUpTo(value, PARTS_IN_ONE_GO) < PARTS_IN_ONE_GO) return JSON.stringify(value, null, indent);
  return slicedText(value, indent);
}

async function slicedText(value: Record<string, unknown> | unknown[], indent: number): Promise<string> {
  const writer = new SlicedWriter(indent);
  await writer.write(value, 0);
  return writer.parts.join('');
}

/** Plain objects and arrays; anything with its own `toJSON` is left to JSON.stringify. */
function isOpenable(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * How many values the value holds, itself included, counting no further than `limit`. It runs
 * before every answer is written: members are read in place (answers are plain objects and
 * arrays, with no inherited keys), and only objects wait their turn, so a count makes no arrays.
 */
export function partsUpTo(value: unknown, limit: number): number {
  let count = 1;
  const pending: object[] = value !== null && typeof value === 'object' ? [value] : [];
  while (pending.length > 0 && count < limit) {
    const next = pending.pop()!;
    if (Array.isArray(next)) {
      for (const member of next as unknown[]) {
        count += 1;
        if (member !== null && typeof member === 'object') pending.push(member);
      }
    } else {
      for (const key in next) {
        const member = (next as Record<string, unknown>)[key];
        count += 1;
        if (member !== null && typeof member === 'object') pending.push(member);
      }
    }
  }
  return Math.min(count, limit);
}

class SlicedWriter {
  readonly parts: string[] = [];
  private readonly slices = new Slices();

  constructor(private readonly indent: number) {}

  /** Writes a large object or array whose opening bracket stands at nesting `depth`. */
  async write(value: Record<string, unknown> | unknown[], depth: number): Promise<void> {
    const array = Array.isArray(value);
    const keys = array ? undefined : Object.keys(value);
    const count = array ? value.length : keys!.length;
    const inner = this.newline(depth + 1);
    let written = 0;
    for (let index = 0; index < count; index++) {
      const key = keys?.[index];
      const member = array ? value[index] : (value)[key!];
      // As JSON.stringify: a member with no JSON form is left out of an object, null in an array.
      const memberText = isOpenable(member) ? undefined : JSON.stringify(member);
      if (memberText === undefined && !isOpenable(member) && !array) continue;
      this.parts.push(written === 0 ? (array ? '[' : '{') : ',', inner);
      if (key !== undefined) this.parts.push(JSON.stringify(key), this.indent > 0 ? ': ' : ':');
      written += 1;
      if (!isOpenable(member)) {
        this.parts.push(memberText ?? 'null');
      } else if (partsUpTo(member, PARTS_IN_ONE_GO) < PARTS_IN_ONE_GO) {
        this.parts.push(this.indented(JSON.stringify(member, null, this.indent), depth + 1));
      } else {
        await this.write(member, depth + 1);
      }
      await this.slices.pace();
    }
    this.parts.push(written === 0 ? (array ? '[]' : '{}') : `${this.newline(depth)}${array ? ']' : '}'}`);
  }

  /** The line break and indentation before something at nesting `depth`; nothing when not indenting. */
  private newline(depth: number): string {
    return this.indent > 0 ? `\n${' '.repeat(this.indent * depth)}` : '';
  }

  /** Text JSON.stringify wrote as if at the top, moved to nesting `depth` (its strings hold no raw line breaks). */
  private indented(text: string, depth: number): string {
    return this.indent > 0 && depth > 0 ? text.replaceAll('\n', this.newline(depth)) : text;
  }
}
