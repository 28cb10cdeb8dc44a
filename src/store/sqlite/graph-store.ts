import type Database from 'better-sqlite3';
import type { ObjectId } from '../../ids.js';
import type { Association, GraphStore, ObjectsWithGrants, PagesWithObjects, StoredObject } from '../graph-store.js';
import type { PageRequest, Through } from '../page-request.js';
import type { SqliteDatabase } from './database.js';
import type { ReadThrough } from './read-cache.js';
import { pageParams, pageQuery, resumeParams, toAssociation, type AssociationRow, type PageShape } from './page-query.js';
import { SqliteSearch } from './search.js';
import { sqliteWriteBatches } from './write-batch.js';

/** Each condition of a page shape's bit in its statement's key (every one of them, or this does not compile). */
const SHAPE_BITS: Record<keyof PageShape, number> = { after: 1, before: 2, since: 4, until: 8, granted: 16, oldest: 32 };
const SHAPE_CONDITIONS = Object.keys(SHAPE_BITS) as Array<keyof PageShape>;

/** A shape's prepared page query, and the name of each of its parameters in order. */
interface PageStatement {
  statement: Database.Statement<[Array<number | string>], string>;
  names: readonly string[];
}

/** The graph on SQLite: objects, associations and their counts, pages, search and the write batches. */
export function sqliteGraphStore(database: SqliteDatabase): GraphStore {
  const { db, statements, decodedData, inSnapshot, readCache } = database;
  const fullText = new SqliteSearch(db);
  const writeBatch = sqliteWriteBatches(database);
  const pageStatements = new Map<number, PageStatement>();

  /**
   * The objects of these ids that exist, put in `objects`: those `cache` holds from it, the others
   * in one statement (and into the cache).
   */
  function readObjects(ids: readonly ObjectId[], cache: ReadThrough | undefined, objects = new Map<ObjectId, StoredObject>()): Map<ObjectId, StoredObject> {
    const missing: ObjectId[] = [];
    for (const id of ids) {
      const known = cache?.object(id);
      if (known !== undefined) objects.set(id, known);
      else missing.push(id);
    }
    if (missing.length === 0) return objects;
    const rows = missing.length === 1 ? [statements.selectObject.get(missing[0]!)] : statements.selectObjects.all(JSON.stringify(missing));
    for (const row of rows) {
      if (row === undefined) continue;
      const [id, type, owner, createdTime, updatedTime, data] = row;
      const object: StoredObject = { id, type, owner, createdTime, updatedTime, data: decodedData.decode(id, data) };
      objects.set(id, object);
      cache?.rememberObject(object);
    }
    return objects;
  }

  /**
   * The pages of the request; with `objects`, also the object of each id2 listed, put there (from
   * `cache` where it holds them). The caller holds the snapshot they are read in.
   */
  function readPages(request: PageRequest, objects?: Map<ObjectId, StoredObject>, cache?: ReadThrough): Map<ObjectId, Association[]> {
    const pages = new Map<ObjectId, Association[]>();
    if (request.id1s.length === 0) return pages;
    if (!Number.isInteger(request.limit) || request.limit < 0) {
      throw new RangeError(`Page limit must be a non-negative integer, got ${request.limit}`);
    }
    const shape: PageShape = {
      after: request.after !== undefined || (request.resumeAt !== undefined && request.before === undefined),
      before: request.before !== undefined,
      since: request.since !== undefined,
      until: request.until !== undefined,
      granted: request.id2GrantedTo !== undefined,
      oldest: request.order === 'oldest',
    };
    const { statement, names } = pageStatement(shape);
    const params = pageParams(request);
    const scan = (owner: ObjectId): Association[] => {
      params.id1 = owner;
      const rows = JSON.parse(statement.get(names.map((name) => params[name]!))!) as AssociationRow[];
      return rows.map(([id2, time, data]) => toAssociation(owner, request.type, id2, time, data));
    };
    const listed: ObjectId[] = [];
    for (const id1 of request.id1s) {
      resumeParams(params, request, id1);
      const rows = request.through === undefined ? scan(id1) : mergedScan(id1, request.through, shape, request.limit, scan);
      // A `before` page is read backwards from the position, then turned to the list's order.
      if (shape.before) rows.reverse();
      pages.set(id1, rows);
      for (const row of rows) listed.push(row.id2);
    }
    // The objects come by id after the pages: most are held already, and a person's profile is
    // most of what a page's rows would otherwise carry each time.
    if (objects !== undefined) readObjects(listed, cache, objects);
    return pages;
  }

  /**
   * The page of a list merged from id1's own and from each node id1 lists under `through`: one
   * bounded range scan per owner, then the `limit` rows nearest the position across all of them,
   * so the cost follows the number of owners and the page size, never the size of their lists.
   */
  function mergedScan(id1: ObjectId, through: Through, shape: PageShape, limit: number, scan: (owner: ObjectId) => Association[]): Association[] {
    const listed = through.grantedTo
      ? statements.selectListedGranted.all(id1, through.type, through.grantedTo.appId, through.grantedTo.scope)
      : statements.selectListed.all(id1, through.type);
    const owners = [id1, ...listed.map((row) => row.id2)];
    // Rows come in scan order: newest first, unless the list reads oldest first; either turned round for a `before` page.
    const descending = shape.oldest === shape.before;
    const rows = owners.flatMap(scan);
    rows.sort((a, b) => (descending ? b.time - a.time || b.id2 - a.id2 : a.time - b.time || a.id2 - b.id2));
    return rows.slice(0, limit);
  }

  /** The permissions each of the objects, and each of their owners, granted the app; none read for people already known. */
  function readGrantedScopes(
    appId: ObjectId,
    objects: ReadonlyMap<ObjectId, StoredObject>,
    known: ((person: ObjectId) => boolean) | undefined,
  ): Map<ObjectId, string[]> {
    const people = new Set<ObjectId>();
    for (const object of objects.values()) {
      people.add(object.id);
      if (object.owner !== null) people.add(object.owner);
    }
    const asked = known === undefined ? [...people] : [...people].filter((person) => !known(person));
    const granted = new Map<ObjectId, string[]>(asked.map((person) => [person, []]));
    if (asked.length === 0) return granted;
    for (const { user_id, scope } of statements.selectGrantedAmong.all(appId, JSON.stringify(asked))) granted.get(user_id)!.push(scope);
    return granted;
  }

  function pageStatement(shape: PageShape): PageStatement {
    // One bit per condition: every page read looks its statement up, so the key makes no arrays or text.
    let key = 0;
    for (const condition of SHAPE_CONDITIONS) if (shape[condition]) key |= SHAPE_BITS[condition];
    let prepared = pageStatements.get(key);
    if (prepared === undefined) {
      const { sql, names } = pageQuery(shape);
      prepared = { statement: db.prepare<[Array<number | string>], string>(sql).pluck(), names };
      pageStatements.set(key, prepared);
    }
    return prepared;
  }

  return {
    async getObjects(ids) {
      return readObjects(ids, readCache.current());
    },

    async getObjectsWithGrants(ids, appId) {
      let result: ObjectsWithGrants | undefined;
      const cache = readCache.current();
      inSnapshot(() => {
        const objects = readObjects(ids, cache);
        result = { objects, grantedScopes: readGrantedScopes(appId, objects, undefined) };
      });
      return result!;
    },

    async getPages(request) {
      let pages: Map<ObjectId, Association[]> | undefined;
      inSnapshot(() => {
        pages = readPages(request);
      });
      return pages!;
    },

    async getPagesWithObjects(request, grantsKnown) {
      // In process, separate reads cost no more than one; reading them in one snapshot keeps them consistent.
      let result: PagesWithObjects | undefined;
      const cache = readCache.current();
      inSnapshot(() => {
        const objects = new Map<ObjectId, StoredObject>();
        const pages = readPages(request, objects, cache);
        const grantedScopes = request.grantsTo === undefined ? new Map<number, string[]>() : readGrantedScopes(request.grantsTo, objects, grantsKnown);
        result = { pages, objects, grantedScopes };
      });
      return result!;
    },

    async getCounts(type, id1s) {
      const counts = new Map<ObjectId, number>();
      const cache = readCache.current();
      const missing: ObjectId[] = [];
      for (const id1 of id1s) {
        const known = cache?.count(type, id1);
        if (known !== undefined) counts.set(id1, known);
        else missing.push(id1);
      }
      // Point reads of the primary key, in one transaction when there are several: cheaper than
      // one statement over json_each for the lists of a level (25 posts' comments).
      const read = () => {
        for (const id1 of missing) {
          const count = statements.selectCount.get(id1, type)?.count ?? 0;
          counts.set(id1, count);
          cache?.rememberCount(type, id1, count);
        }
      };
      if (missing.length === 1) read();
      else if (missing.length > 1) inSnapshot(read);
      return counts;
    },

    async getExisting(type, pairs) {
      const existing = new Set<string>();
      if (pairs.length === 0) return existing;
      inSnapshot(() => {
        for (const [id1, id2] of pairs) {
          if (statements.selectAssociationExists.get(id1, type, id2) !== undefined) existing.add(`${id1}:${id2}`);
        }
      });
      return existing;
    },

    async write(ops) {
      return { results: writeBatch.immediate(ops) };
    },

    async findDeclaredIds(type, keys) {
      if (keys.length === 0) return new Map();
      return new Map(statements.selectDeclaredIds.all(type, JSON.stringify(keys)).map((row) => [row.key, row.id]));
    },

    async declareSearchable(types, onReindex) {
      fullText.declare(types, onReindex);
    },

    async search(request) {
      return fullText.search(request);
    },
  };
}
