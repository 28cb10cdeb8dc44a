import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';
import type { StoredObject } from '../graph-store.js';
import type { CommitWatch } from './commit-watch.js';

/** Objects kept; past this the oldest are forgotten first (a person's decoded profile is a few kB). */
const MAX_OBJECTS = 10_000;
/** Counts kept, by list; past this the oldest are forgotten first. */
const MAX_COUNTS = 50_000;

/**
 * Objects and counts read lately, as they were read, while nothing has been committed since
 * (CommitWatch): a page of 25 likers or friends, read again and again by one person or another,
 * then takes its rows from the index alone, none of the people's whole profiles crosses from
 * SQLite again, and the comment counts of the same 25 posts are not looked up again. Any commit,
 * by any process or this one, starts it over.
 *
 * Inside a transaction somebody else holds, reads may see writes not yet committed, which no
 * generation tells of: there the cache is not used at all.
 */
export class ReadCache implements ReadThrough {
  private readonly objects = new Map<ObjectId, StoredObject>();
  /** By list type, then by id1. */
  private readonly counts = new Map<string, Map<ObjectId, number>>();
  private countEntries = 0;
  private generation: number | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly commits: CommitWatch,
  ) {}

  /** What still holds, for a read about to begin; nothing inside a transaction already open. */
  current(): ReadThrough | undefined {
    if (this.db.inTransaction) return undefined;
    const generation = this.commits.generation();
    if (generation !== this.generation) {
      this.objects.clear();
      this.counts.clear();
      this.countEntries = 0;
      this.generation = generation;
    }
    return this;
  }

  object(id: ObjectId): StoredObject | undefined {
    return this.objects.get(id);
  }

  rememberObject(object: StoredObject): void {
    if (this.objects.size >= MAX_OBJECTS && !this.objects.has(object.id)) this.objects.delete(this.objects.keys().next().value!);
    this.objects.set(object.id, object);
  }

  count(type: string, id1: ObjectId): number | undefined {
    return this.counts.get(type)?.get(id1);
  }

  rememberCount(type: string, id1: ObjectId, count: number): void {
    // Full: the counts of one type go at once, the oldest type first; they are read again cheaply.
    if (this.countEntries >= MAX_COUNTS) {
      const [oldest, entries] = this.counts.entries().next().value!;
      this.counts.delete(oldest);
      this.countEntries -= entries.size;
    }
    let ofType = this.counts.get(type);
    if (ofType === undefined) {
      ofType = new Map();
      this.counts.set(type, ofType);
    }
    if (!ofType.has(id1)) this.countEntries += 1;
    ofType.set(id1, count);
  }
}

/** What a read takes its objects and counts from, and leaves those it read in. */
export interface ReadThrough {
  object(id: ObjectId): StoredObject | undefined;
  rememberObject(object: StoredObject): void;
  count(type: string, id1: ObjectId): number | undefined;
  rememberCount(type: string, id1: ObjectId, count: number): void;
}
