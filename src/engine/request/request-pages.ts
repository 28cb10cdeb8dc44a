import type { Store } from '../../store/store.js';
import type { Association, StoredObject } from '../../store/graph-store.js';
import type { PageRequest } from '../../store/page-request.js';
import type { ObjectId } from '../../ids.js';

/** Page reads one request remembers, oldest forgotten first: enough for a wide level, a bounded amount of memory. */
const REMEMBERED_READS = 64;

export interface PageRead {
  pages: Map<ObjectId, Association[]>;
  /** The objects the associations point at, when asked for along with the pages. */
  objects?: Map<ObjectId, StoredObject>;
  /** The permissions the listed objects and their owners granted the app, when asked for along with the objects. */
  grantedScopes?: Map<ObjectId, string[]>;
}

/**
 * The pages (and their counts) one request has read, by what was asked. A wide query can ask for
 * the same page many times over (2,000 aliases of one friend list): it is read and decoded once, and each alias
 * shows it (and counts its items against the request's budget) as if read on its own. Lives as
 * long as the request, so it never serves stale data to another; what it hands out is only read.
 */
export class RequestPages {
  private readonly reads = new Map<string, Promise<PageRead>>();
  private readonly countReads = new Map<string, Promise<Map<ObjectId, number>>>();
  /** Every association a page of this request listed, as `type:id1:id2`: each one exists. */
  private readonly listed = new Set<string>();
  /** Pages read but not yet entered in `listed`: most requests never ask, and so never pay for the keys. */
  private unlisted: Array<Map<ObjectId, Association[]>> = [];

  constructor(private readonly store: Store) {}

  /** With the objects, the grants of people `grantsKnown` names may be left out (Store.getPagesWithObjects). */
  read(request: PageRequest, withObjects: boolean, grantsKnown?: (person: ObjectId) => boolean): Promise<PageRead> {
    // A resumed read's positions are a Map, which JSON writes as `{}`: its entries go beside it.
    // (No replacer: one makes JSON.stringify call back for every value of the request.)
    const key = JSON.stringify([withObjects, request, request.resumeAt === undefined ? null : [...request.resumeAt]]);
    const known = this.reads.get(key);
    if (known !== undefined) return known;
    const read: Promise<PageRead> = withObjects
      ? this.store.getPagesWithObjects(request, grantsKnown)
      : this.store.getPages(request).then((pages) => ({ pages }));
    // A failed read is not remembered: the request fails, and nothing else reads this memory.
    read.then(({ pages }) => this.unlisted.push(pages), () => this.reads.delete(key));
    if (this.reads.size >= REMEMBERED_READS) this.reads.delete(this.reads.keys().next().value!);
    this.reads.set(key, read);
    return read;
  }

  /** The counts of `type` from each id1 (the summaries of a level), each identical read made once. */
  counts(type: string, id1s: readonly ObjectId[]): Promise<Map<ObjectId, number>> {
    const key = JSON.stringify([type, id1s]);
    const known = this.countReads.get(key);
    if (known !== undefined) return known;
    const read = this.store.getCounts(type, id1s);
    read.catch(() => this.countReads.delete(key));
    if (this.countReads.size >= REMEMBERED_READS) this.countReads.delete(this.countReads.keys().next().value!);
    this.countReads.set(key, read);
    return read;
  }

  /**
   * Which of the (id1, id2) pairs exist for `type`, as a set of `${id1}:${id2}`: a pair a page of
   * this request listed is known (the viewer's friends, whose posts follow), the others take one store call.
   */
  async existing(type: string, pairs: ReadonlyArray<readonly [ObjectId, ObjectId]>): Promise<Set<string>> {
    for (const pages of this.unlisted) for (const rows of pages.values()) for (const row of rows) this.listed.add(`${row.type}:${row.id1}:${row.id2}`);
    this.unlisted = [];
    const found = new Set<string>();
    const unknown = pairs.filter(([id1, id2]) => {
      if (!this.listed.has(`${type}:${id1}:${id2}`)) return true;
      found.add(`${id1}:${id2}`);
      return false;
    });
    if (unknown.length > 0) for (const pair of await this.store.getExisting(type, unknown)) found.add(pair);
    return found;
  }
}
