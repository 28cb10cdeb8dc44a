/**
 * An object's `data` decoded only as far as it is read. A person's profile is a kilobyte or two
 * of JSON with dozens of nested values, and a page of friends or likers shows only their names:
 * parsing, freezing and collecting the rest was most of the work of such a read. The text is
 * indexed once (where each top-level member's value starts and ends, found without building
 * anything), and a member's value is parsed the first time it is read. It behaves as the frozen
 * plain object `JSON.parse` and freezing would give: its keys in order, spread, `JSON.stringify`,
 * `in`; a write to it throws.
 */

type Data = Record<string, unknown>;

const QUOTE = '"'.charCodeAt(0);
const BACKSLASH = '\\'.charCodeAt(0);
const COMMA = ','.charCodeAt(0);
const COLON = ':'.charCodeAt(0);
const OPEN_BRACE = '{'.charCodeAt(0);
const CLOSE_BRACE = '}'.charCodeAt(0);
const OPEN_BRACKET = '['.charCodeAt(0);
const CLOSE_BRACKET = ']'.charCodeAt(0);
/** Where a nested value's scan must look: strings and brackets. */
const STRUCTURE = /["{}[\]]/g;

/** A member's value as text, and once read, as a frozen value. */
interface Member {
  start: number;
  end: number;
  parsed?: { value: unknown };
}

/**
 * What a lazy object holds; its fields are private, so they are none of the object's keys. The
 * text is indexed only as far as the keys asked for: a profile's `name` comes first, so a page
 * of names reads a few characters of each. (Stored data is written by JSON.stringify, which
 * never gives a key twice, so the first place a key is found is its only one.)
 */
class LazyRecord {
  readonly #text: string;
  readonly #members = new Map<string, Member>();
  /** Where the next member's key starts; -1 once every member is indexed. */
  #next: number;

  constructor(text: string, next: number) {
    this.#text = text;
    this.#next = next;
  }

  static keys(record: LazyRecord): string[] {
    while (record.#next >= 0) record.#indexNext();
    return [...record.#members.keys()];
  }

  static has(record: LazyRecord, key: string): boolean {
    return record.#find(key) !== undefined;
  }

  static value(record: LazyRecord, key: string): unknown {
    const member = record.#find(key);
    if (member === undefined) return undefined;
    member.parsed ??= { value: deepFreeze(JSON.parse(record.#text.slice(member.start, member.end))) };
    return member.parsed.value;
  }

  #find(key: string): Member | undefined {
    let member = this.#members.get(key);
    while (member === undefined && this.#next >= 0) {
      if (this.#indexNext() === key) member = this.#members.get(key);
    }
    return member;
  }

  /** Indexes the member at #next and gives its key. */
  #indexNext(): string | undefined {
    const text = this.#text;
    let at = this.#next;
    if (text.charCodeAt(at) === CLOSE_BRACE) {
      this.#next = -1;
      return undefined;
    }
    if (text.charCodeAt(at) !== QUOTE) return this.#malformed();
    const keyEnd = endOfString(text, at);
    const rawKey = text.slice(at + 1, keyEnd - 1);
    const key = rawKey.includes('\\') ? (JSON.parse(text.slice(at, keyEnd)) as string) : rawKey;
    at = skipSpace(text, keyEnd);
    if (text.charCodeAt(at) !== COLON) return this.#malformed();
    const start = skipSpace(text, at + 1);
    const end = endOfValue(text, start);
    if (end < 0) return this.#malformed();
    this.#members.set(key, { start, end });
    at = skipSpace(text, end);
    const after = text.charCodeAt(at);
    if (after === CLOSE_BRACE) this.#next = -1;
    else if (after === COMMA) this.#next = skipSpace(text, at + 1);
    else return this.#malformed();
    return key;
  }

  /** Text the index cannot follow: JSON.parse says what is wrong with it, or else gives every member. */
  #malformed(): undefined {
    const parsed = JSON.parse(this.#text) as Record<string, unknown>;
    this.#members.clear();
    for (const [key, value] of Object.entries(parsed)) this.#members.set(key, { start: 0, end: 0, parsed: { value: deepFreeze(value) } });
    this.#next = -1;
    return undefined;
  }
}

function refuseWrite(): never {
  throw new TypeError('Stored object data is read-only: build new data to write');
}

const handler: ProxyHandler<LazyRecord> = {
  get: (record, key) => (typeof key === 'string' && LazyRecord.has(record, key) ? LazyRecord.value(record, key) : (Reflect.get(Object.prototype, key) as unknown)),
  has: (record, key) => (typeof key === 'string' && LazyRecord.has(record, key)) || key in Object.prototype,
  ownKeys: (record) => LazyRecord.keys(record),
  getOwnPropertyDescriptor: (record, key) =>
    typeof key === 'string' && LazyRecord.has(record, key) ? { value: LazyRecord.value(record, key), writable: false, enumerable: true, configurable: true } : undefined,
  getPrototypeOf: () => Object.prototype,
  set: refuseWrite,
  defineProperty: refuseWrite,
  deleteProperty: refuseWrite,
  setPrototypeOf: refuseWrite,
  preventExtensions: refuseWrite,
};

/** `text`, a JSON object, as data decoded as it is read; undefined when it is not an object's text. */
export function lazyData(text: string): Data | undefined {
  const open = skipSpace(text, 0);
  if (text.charCodeAt(open) !== OPEN_BRACE) return undefined;
  return new Proxy(new LazyRecord(text, skipSpace(text, open + 1)), handler) as unknown as Data;
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return at;
    at++;
  }
}

/** Just past the closing quote of the string that opens at `at`. */
function endOfString(text: string, at: number): number {
  let quote = at;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/** Just past the value that starts at `at`, or -1 where the text ends first. */
function endOfValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return endOfString(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    STRUCTURE.lastIndex = at;
    for (;;) {
      const found = STRUCTURE.exec(text);
      if (found === null) return -1;
      const code = text.charCodeAt(found.index);
      if (code === QUOTE) STRUCTURE.lastIndex = endOfString(text, found.index);
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (--depth === 0) return found.index + 1;
    }
  }
  // A number, true, false or null: up to the next separator.
  let end = at;
  for (;;) {
    const code = text.charCodeAt(end);
    if (Number.isNaN(code) || code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || code === 32 || code === 10 || code === 13 || code === 9) return end;
    end++;
  }
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
