/**
 * Who is friends with whom, decided in memory before anything is written. Each person aims at a
 * number of friends; half of the new friendships are made through an existing friend (a friend
 * of a friend), which gives the graph the mutual friends and clusters of a real one.
 */
import type { Random } from './random.js';

export interface FriendGraphOptions {
  /** Friends each person aims at (already within [minFriends, maxFriends]). */
  targets: readonly number[];
  /** Pairs that must be friends (partners). */
  requiredPairs: ReadonlyArray<readonly [number, number]>;
  minFriends: number;
  maxFriends: number;
}

/** Each person's friends, in the order the friendships were made. */
export function buildFriendGraph(random: Random, options: FriendGraphOptions): number[][] {
  const count = options.targets.length;
  const friends: number[][] = Array.from({ length: count }, () => []);
  const friendSets: Array<Set<number>> = Array.from({ length: count }, () => new Set());
  const connect = (a: number, b: number): void => {
    (friends[a] as number[]).push(b);
    (friends[b] as number[]).push(a);
    (friendSets[a] as Set<number>).add(b);
    (friendSets[b] as Set<number>).add(a);
  };
  const canConnect = (a: number, b: number, limit: (person: number) => number): boolean =>
    a !== b &&
    !(friendSets[a] as Set<number>).has(b) &&
    (friends[a] as number[]).length < limit(a) &&
    (friends[b] as number[]).length < limit(b);

  for (const [a, b] of options.requiredPairs) if (a !== b && !(friendSets[a] as Set<number>).has(b)) connect(a, b);

  // People who still want friends, for O(1) random picks and removals.
  const open: number[] = [];
  const openSlot = new Int32Array(count).fill(-1);
  const close = (person: number): void => {
    const slot = openSlot[person] as number;
    if (slot < 0) return;
    const last = open.pop() as number;
    if (last !== person) {
      open[slot] = last;
      openSlot[last] = slot;
    }
    openSlot[person] = -1;
  };
  for (let person = 0; person < count; person++) {
    if ((friends[person] as number[]).length < (options.targets[person] as number)) {
      openSlot[person] = open.length;
      open.push(person);
    }
  }

  const target = (person: number): number => options.targets[person] as number;
  for (let person = 0; person < count; person++) {
    let attempts = 8 * (target(person) - (friends[person] as number[]).length) + 8;
    while ((friends[person] as number[]).length < target(person) && attempts-- > 0 && open.length > 1) {
      const mine = friends[person] as number[];
      let candidate: number;
      if (mine.length > 0 && random.chance(0.5)) {
        const theirs = friends[random.pick(mine)] as number[];
        candidate = random.pick(theirs);
      } else {
        candidate = random.pick(open);
      }
      if (!canConnect(person, candidate, target)) continue;
      connect(person, candidate);
      if ((friends[candidate] as number[]).length >= target(candidate)) close(candidate);
    }
    close(person);
  }

  // Anyone left below the minimum (unlucky picks late in the pass) is topped up from everyone.
  const floor = Math.min(options.minFriends, count - 1);
  const ceiling = (): number => options.maxFriends;
  for (let person = 0; person < count; person++) {
    let attempts = 50 * floor;
    while ((friends[person] as number[]).length < floor && attempts-- > 0) {
      const candidate = random.int(0, count - 1);
      if (canConnect(person, candidate, ceiling)) connect(person, candidate);
    }
  }
  return friends;
}
