/** Objects whose decoded data is kept (a few MB at most); past this the oldest are forgotten first. */
const MAX_ENTRIES = 1000;
/** Longer texts are decoded every time: the memory they would hold is worth more than the parse. */
const MAX_TEXT = 4 * 1024;

type Data = Record<string, unknown>;

/**
 * The decoded `data` of objects read lately, each beside the exact JSON text it came from. A row
 * that arrives with the same text takes the decoded value instead of parsing it again: what it
 * hands out is what parsing that text gives, so it is never stale, and it saves the parse that
 * dominates a page of people's profiles. Values are shared between reads, so they are frozen:
 * nothing may change a stored object's data in place (writes build new data).
 */
export class DecodedData {
  private readonly entries = new Map<number, { text: string; data: Data }>();

  decode(id: number, text: string): Data {
    const entry = this.entries.get(id);
    if (entry !== undefined && entry.text === text) return entry.data;
    const data = JSON.parse(text) as Data;
    if (text.length > MAX_TEXT) return data;
    if (entry === undefined && this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { text, data: deepFreeze(data) });
    return data;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
