import { deepFreeze, lazyData } from './lazy-data.js';

/** Texts shorter than this are parsed whole: the index of a lazy object would cost more than the parse. */
const LAZY_FROM = 256;
/** Objects whose decoded data is kept (a few MB at most); past this the oldest are forgotten first. */
const MAX_ENTRIES = 1000;
/** Longer texts are decoded every time: the memory they would hold is worth more than the parse. */
const MAX_TEXT = 4 * 1024;

type Data = Record<string, unknown>;

/**
 * The decoded `data` of objects read lately, each beside the exact JSON text it came from. A row
 * that arrives with the same text takes the decoded value instead of decoding it again: what it
 * hands out is what parsing that text gives, so it is never stale. Longer texts (people's
 * profiles) are decoded only as far as they are read (lazy-data.ts). Values are shared between
 * reads, so they are frozen: nothing may change a stored object's data in place (writes build
 * new data).
 */
export class DecodedData {
  private readonly entries = new Map<number, { text: string; data: Data }>();

  decode(id: number, text: string): Data {
    const entry = this.entries.get(id);
    if (entry !== undefined && entry.text === text) return entry.data;
    const data = (text.length >= LAZY_FROM ? lazyData(text) : undefined) ?? deepFreeze(JSON.parse(text) as Data);
    if (text.length > MAX_TEXT) return data;
    if (entry === undefined && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { text, data });
    return data;
  }
}
