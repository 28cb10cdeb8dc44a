import type { Association, ObjectId, PageRequest, Store, StoredObject } from '../store/store.js';

/** Page reads one request remembers, oldest forgotten first: enough for a wide level, a bounded amount of memory. */
const REMEMBERED_READS = 64;

export interface PageRead {
  pages: Map<ObjectId, Association[]>;
  /** The objects the associations point at, when asked for along with the pages. */
  objects?: Map<ObjectId, StoredObject>;
  /** Whether the listed objects and their owners use the app, when asked for along with the objects. */
  appUse?: Map<ObjectId, boolean>;
}

/**
 * The pages one request has read, by what was asked. A wide query can ask for the same page many
 * times over (2,000 aliases of one friend list): it is read and decoded once, and each alias
 * shows it (and counts its items against the request's budget) as if read on its own. Lives as
 * long as the request, so it never serves stale data to another; what it hands out is only read.
 */
export class RequestPages {
  private readonly reads = new Map<string, Promise<PageRead>>();

  constructor(private readonly store: Store) {}

  read(request: PageRequest, withObjects: boolean): Promise<PageRead> {
    const key = JSON.stringify([withObjects, request]);
    const known = this.reads.get(key);
    if (known !== undefined) return known;
    const read: Promise<PageRead> = withObjects ? this.store.getPagesWithObjects(request) : this.store.getPages(request).then((pages) => ({ pages }));
    // A failed read is not remembered: the request fails, and nothing else reads this memory.
    read.catch(() => this.reads.delete(key));
    if (this.reads.size >= REMEMBERED_READS) this.reads.delete(this.reads.keys().next().value!);
    this.reads.set(key, read);
    return read;
  }
}
