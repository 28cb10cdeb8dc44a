/**
 * A small seeded pseudo-random generator (mulberry32) with the helpers the demo graph needs.
 * The same seed always yields the same sequence, which is what makes a seeded graph
 * reproducible; `Math.random` is never used in the seeder for that reason.
 */
/** FNV-1a over the UTF-16 code units, then a final avalanche so close seeds diverge at once. */
function hashToUint32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class Random {
  private state: number;
  private readonly seedText: string;

  constructor(seed: string | number) {
    this.seedText = String(seed);
    this.state = hashToUint32(this.seedText);
  }

  /**
   * An independent generator for one part of the work. Each phase of the seeder draws from its
   * own fork so that a change in how one phase consumes numbers leaves the others unchanged.
   */
  fork(label: string): Random {
    return new Random(`${this.seedText}/${label}`);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let mixed = this.state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /**
   * An integer in [min, max] where small values are far more likely: `power` 1 is uniform,
   * larger powers push the mass towards `min`. Real activity (posts, likes, comments) is skewed
   * like this: most people do little and a few do a lot.
   */
  skewed(min: number, max: number, power: number): number {
    return min + Math.floor(Math.pow(this.next(), power) * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One value, chosen with probability proportional to its weight. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, weight] of choices) total += weight;
    let point = this.next() * total;
    for (const [value, weight] of choices) {
      point -= weight;
      if (point < 0) return value;
    }
    const last = choices[choices.length - 1];
    if (last === undefined) throw new Error('weighted choice from an empty list');
    return last[0];
  }

  /** Shuffles in place (Fisher–Yates) and returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const held = items[i] as T;
      items[i] = items[j] as T;
      items[j] = held;
    }
    return items;
  }

  /** `count` distinct items of `items`, in random order (all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    const wanted = Math.min(count, items.length);
    const pool = items.slice();
    // A partial Fisher–Yates: only the first `wanted` places need to be settled.
    for (let i = 0; i < wanted; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      const held = pool[i] as T;
      pool[i] = pool[j] as T;
      pool[j] = held;
    }
    return pool.slice(0, wanted);
  }

  /** Text of `length` letters and digits. */
  alphanumeric(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += ALPHANUMERIC[Math.floor(this.next() * ALPHANUMERIC.length)];
    return text;
  }

  /** `count` bytes, for keys and salts that must follow from the seed. */
  bytes(count: number): Buffer {
    return Buffer.from(Array.from({ length: count }, () => this.int(0, 255)));
  }
}
