/** What the phases of the demo seeder share once the people exist. */
import type { ObjectId } from '../ids.js';
import type { OpBuffer } from './op-buffer.js';
import type { Person } from './people.js';
import type { SeedProgress } from './seed-progress.js';

export interface SeedContext {
  buffer: OpBuffer;
  progress: SeedProgress;
  /** Unix seconds: nothing happens after it. */
  now: number;
  /** The people of the social graph; index 0 is the demo user. */
  people: Person[];
  /** Ids of every user: the people first (same indexes), then the extra likers. */
  userIds: ObjectId[];
  /** Friends of each person, by index. */
  friends: number[][];
}
