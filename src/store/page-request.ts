import type { ObjectId } from '../ids.js';

/** A keyset position inside one association list. */
export interface Position {
  time: number;
  id2: ObjectId;
}

export interface PageRequest {
  type: string;
  id1s: readonly ObjectId[];
  /** Most associations to return per id1 (callers ask one more than they show, to learn if more exist). */
  limit: number;
  /** Only associations strictly after (older than) this position. */
  after?: Position;
  /** Only associations strictly before (newer than) this position; the page is the one just before it. */
  before?: Position;
  /** Only associations with time >= since. */
  since?: number;
  /** Only associations with time <= until. */
  until?: number;
  /**
   * 'newest' (the default) lists (time DESC, id2 DESC); 'oldest' lists the reverse. `after` and
   * `before` always mean "further along" and "further back" in the chosen order.
   */
  order?: 'newest' | 'oldest';
  /**
   * Merge into each id1's list the associations of `type` from every node id1 lists under this
   * association type (a news feed: the posts of a person and of each of their friends). Each row
   * keeps its own id1; every id2 appears once, as each type's list holds it once.
   */
  through?: Through;
  /** Keep only associations whose id2 granted `appId` the permission `scope` (status granted). */
  id2GrantedTo?: { appId: ObjectId; scope: string };
  /**
   * With the objects (getPagesWithObjects), also the permissions each listed object and each
   * listed object's owner granted this app (status granted). Whoever shows people, or what people
   * wrote, checks whether they used the app and what they let it read: asked along with the
   * page, that costs no round trip of its own.
   */
  grantsTo?: ObjectId;
  /**
   * Per id1, where its page reads on from, in place of `after` (or, reading backwards with
   * `before`, of `before`): only rows strictly further along than this position. A page that an
   * earlier read of the same list left short goes on from that read's last row. When given, it
   * names every id1.
   */
  resumeAt?: ReadonlyMap<ObjectId, Position>;
}

/** The nodes whose lists a merged page takes in besides id1's own. */
export interface Through {
  /** The nodes id1 lists under this association type. */
  type: string;
  /** Only those of them that granted `appId` the permission `scope` (status granted). */
  grantedTo?: { appId: ObjectId; scope: string };
}
