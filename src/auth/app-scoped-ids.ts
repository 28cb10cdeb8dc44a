/**
 * App-scoped user ids. Each app sees a person under its own id: a keyed permutation of the
 * internal object id (a four-round Feistel network over 40 bits), shifted above every internal
 * id into the app's slot (its idTag). A permutation needs no table, maps both ways in constant
 * time, and an id minted under one app decodes under another to nothing (another slot) or to an
 * unrelated number, almost always one that names nobody (and the object it might name is
 * checked to be a user, and visible, like any other). The slot can be read off an id, so the
 * apps an id may belong to are found without a token by one indexed lookup (apps by idTag).
 */
const HALF_BITS = 20;
const HALF = 2 ** HALF_BITS;
const DOMAIN = HALF * HALF;
/** Scoped ids live in [BASE, BASE + ID_TAGS * DOMAIN): disjoint from internal ids, which stay below DOMAIN. */
const BASE = 2 ** 50;
/**
 * Scoped ids an app remembers, oldest forgotten first. A wide read names the same people again
 * and again (2,000 aliased friend lists of 25 friends): each is then one shared string, not
 * thousands of equal ones the garbage collector must copy while the answer is built.
 */
const REMEMBERED_IDS = 4096;
/** Slots of the scoped-id space; an app's idTag picks one. */
export const ID_TAGS = 64;

/** The numbers scoped user ids are drawn from, which nothing else may use as an id. */
export const SCOPED_ID_RANGE = { first: BASE, last: BASE + ID_TAGS * DOMAIN - 1 };

export function isScopedUserId(id: number): boolean {
  return id >= SCOPED_ID_RANGE.first && id <= SCOPED_ID_RANGE.last;
}

/** The slot a scoped id lies in, or undefined when the text is not a scoped id at all. */
export function idTagOf(scopedId: string): number | undefined {
  if (!/^\d{1,16}$/.test(scopedId)) return undefined;
  const id = Number(scopedId);
  return isScopedUserId(id) ? Math.floor((id - BASE) / DOMAIN) : undefined;
}

export class AppScopedIds {
  private readonly keys: number[];
  /** Where this app's slot starts. */
  private readonly start: number;
  private readonly remembered = new Map<number, string>();

  constructor(idKeyHex: string, idTag: number) {
    if (!Number.isInteger(idTag) || idTag < 0 || idTag >= ID_TAGS) throw new RangeError(`idTag out of range: ${idTag}`);
    const key = Buffer.from(idKeyHex.padEnd(32, '0').slice(0, 32), 'hex');
    this.keys = [0, 4, 8, 12].map((offset) => key.readUInt32LE(offset));
    this.start = BASE + idTag * DOMAIN;
  }

  /** The scoped id of an internal id (used for users, and to hide positions inside cursors). */
  scope(internalId: number): string {
    if (!Number.isSafeInteger(internalId) || internalId < 0 || internalId >= DOMAIN) {
      throw new RangeError(`internal id out of range: ${internalId}`);
    }
    const known = this.remembered.get(internalId);
    if (known !== undefined) return known;
    let left = Math.floor(internalId / HALF);
    let right = internalId % HALF;
    for (const key of this.keys) {
      [left, right] = [right, (left ^ mix(right, key)) >>> 0];
    }
    const scoped = String(this.start + left * HALF + right);
    if (this.remembered.size >= REMEMBERED_IDS) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(internalId, scoped);
    return scoped;
  }

  /** The internal id behind a scoped id, or undefined when the text is not a scoped id at all. */
  unscope(scopedId: string): number | undefined {
    if (!/^\d{1,16}$/.test(scopedId)) return undefined;
    const value = Number(scopedId) - this.start;
    if (value < 0 || value >= DOMAIN) return undefined;
    let left = Math.floor(value / HALF);
    let right = value % HALF;
    for (let i = this.keys.length - 1; i >= 0; i--) {
      [left, right] = [(right ^ mix(left, this.keys[i]!)) >>> 0, left];
    }
    return left * HALF + right;
  }
}

/** A cheap keyed mixing of 20 bits (integer hash finaliser), enough to scatter neighbouring ids. */
function mix(half: number, key: number): number {
  let h = Math.imul(half ^ key, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae3d);
  h ^= h >>> 16;
  return h & (HALF - 1);
}
