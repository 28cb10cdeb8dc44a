import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';
import type { StoredObject } from '../graph-store.js';
import type { CommitWatch } from './commit-watch.js';

/** Objects kept; past this the oldest are forgotten first (a person's decoded profile is a few kB). */
const MAX_OBJECTS = 10_000;

/**
 * Objects read lately, as they were read, while nothing has been committed since (CommitWatch):
 * a page of 25 likers or friends, read again and again by one person or another, then takes its
 * rows from the index alone, and none of the people's whole profiles crosses from SQLite again.
 * Any commit, by any process or this one, starts it over.
 *
 * Inside a transaction somebody else holds, reads may see writes not yet committed, which no
 * generation tells of: there the cache is not used at all.
 */
export class ObjectCache {
  private readonly objects = new Map<ObjectId, StoredObject>();
  private generation: number | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly commits: CommitWatch,
  ) {}

  /** The objects that still hold, for a read about to begin; none inside a transaction already open. */
  current(): ReadThrough | undefined {
    if (this.db.inTransaction) return undefined;
    const generation = this.commits.generation();
    if (generation !== this.generation) {
      this.objects.clear();
      this.generation = generation;
    }
    return this;
  }

  get(id: ObjectId): StoredObject | undefined {
    return this.objects.get(id);
  }

  remember(object: StoredObject): void {
    if (this.objects.size >= MAX_OBJECTS && !this.objects.has(object.id)) this.objects.delete(this.objects.keys().next().value!);
    this.objects.set(object.id, object);
  }
}

/** What a read takes its objects from and leaves those it read in. */
export interface ReadThrough {
  get(id: ObjectId): StoredObject | undefined;
  remember(object: StoredObject): void;
}
