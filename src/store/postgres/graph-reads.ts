import type pg from 'pg';
import type { ObjectId } from '../../ids.js';
import type { DecodedData } from '../decoded-data.js';
import type { Association, GraphReads, PagesWithObjects, StoredObject } from '../graph-store.js';
import type { PageRequest } from '../page-request.js';
import { toStoredObject, type ObjectRow } from '../rows.js';
import { zeroFilledCounts } from '../store-results.js';
import { pageColumns, pageQuery } from './page-query.js';
import type { BatchedRead } from './read-batches.js';
import { search } from './search.js';
import { statements, type Statement } from './statements.js';

/**
 * What the graph's reads need of a database: the primary's (PostgresDatabase) or a read
 * replica's (replica.ts), which answer the same statements.
 */
export interface ReadingDatabase {
  readonly pool: pg.Pool;
  readonly ready: Promise<void>;
  readonly decodedData: DecodedData;
  rows<R extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<R[]>;
  batchedRows<R extends pg.QueryResultRow>(read: BatchedRead): Promise<R[]>;
}

/**
 * A row of a page query, its columns where `pageColumns` says: many rows come back per
 * statement, and as arrays the driver builds no object for each.
 */
type PageRow = unknown[];

/** The graph's reads on PostgreSQL: objects, pages, counts, declared keys and search. */
export function postgresGraphReads(database: ReadingDatabase): GraphReads {
  const { decodedData } = database;

  async function readPages(request: PageRequest, withObjects: boolean): Promise<PagesWithObjects> {
    const pages = new Map<ObjectId, Association[]>();
    const objects = new Map<ObjectId, StoredObject>();
    const grantedScopes = new Map<ObjectId, string[]>();
    if (request.id1s.length === 0) return { pages, objects, grantedScopes };
    if (!Number.isInteger(request.limit) || request.limit < 0) {
      throw new RangeError(`Page limit must be a non-negative integer, got ${request.limit}`);
    }
    const id1s = [...new Set(request.id1s)];
    for (const id1 of id1s) pages.set(id1, []);
    const query = pageQuery(request, id1s, withObjects);
    const rows = await database.batchedRows<PageRow>({
      // The same statement with the same values but for its id1s ($1); a resumed read's positions
      // go with its own id1s, so it joins only a read of those very pages.
      key: `${query.name}:${JSON.stringify(request.resumeAt === undefined ? query.values.slice(1) : query.values)}`,
      ids: id1s,
      send: async (client, all) => (await client.query<PageRow>(pageQuery(request, all, withObjects))).rows,
    });
    const column = pageColumns(request);
    const at = column.object;
    // Each object's data comes on one row of the statement, which may be a row of another read
    // of the batch (page-query.ts).
    // So do an owner's grants, on the first row of the owner's objects.
    const withData = new Map<ObjectId, PageRow>();
    const ownerScopes = new Map<ObjectId, string[]>();
    const withGrants = request.grantsTo !== undefined;
    if (withObjects) {
      for (const row of rows) {
        if (row[at + 4] !== null) withData.set(row[column.id2] as number, row);
        const [owner, scopes] = [row[at + 1] as number | null, withGrants ? (row[column.objectScopes + 1] as string[] | null) : null];
        if (owner !== null && scopes !== null) ownerScopes.set(owner, scopes);
      }
    }
    for (const row of rows) {
      const page = pages.get(row[column.id1] as number);
      // A row of another read in the batch is left to it.
      if (page === undefined) continue;
      const id2 = row[column.id2] as number;
      const id1 = (column.owner < 0 ? row[column.id1] : row[column.owner]) as number;
      page.push({ id1, type: request.type, id2, time: row[column.time] as number, data: row[column.data] as Association['data'] });
      const object = withData.get(id2);
      if (object === undefined || object[at] === null || objects.has(id2)) continue;
      const owner = object[at + 1] as number | null;
      objects.set(
        id2,
        toStoredObject({
          id: id2,
          type: object[at] as string,
          owner,
          created_time: object[at + 2] as number,
          updated_time: object[at + 3] as number,
          data: object[at + 4] as string,
        }, decodedData),
      );
      if (!withGrants) continue;
      grantedScopes.set(id2, object[column.objectScopes] as string[]);
      const scopes = owner === null ? undefined : ownerScopes.get(owner);
      if (owner !== null && scopes !== undefined) grantedScopes.set(owner, scopes);
    }
    return { pages, objects, grantedScopes };
  }

  return {
    async getObjects(ids) {
      const objects = new Map<ObjectId, StoredObject>();
      if (ids.length === 0) return objects;
      const rows = await database.batchedRows<ObjectRow>({
        key: statements.selectObjects.name,
        ids,
        send: async (client, all) => (await client.query<ObjectRow>({ ...statements.selectObjects, values: [all] })).rows,
      });
      const asked = new Set(ids);
      // A row of another read in the batch is left to it.
      for (const row of rows) if (asked.has(row.id)) objects.set(row.id, toStoredObject(row, decodedData));
      return objects;
    },

    async getObjectsWithGrants(ids, appId) {
      const objects = new Map<ObjectId, StoredObject>();
      const grantedScopes = new Map<ObjectId, string[]>();
      if (ids.length === 0) return { objects, grantedScopes };
      type Row = ObjectRow & { object_scopes: string[]; owner_scopes: string[] };
      const rows = await database.batchedRows<Row>({
        key: `${statements.selectObjectsWithGrants.name}:${appId}`,
        ids,
        send: async (client, all) => (await client.query<Row>({ ...statements.selectObjectsWithGrants, values: [all, appId] })).rows,
      });
      const asked = new Set(ids);
      for (const row of rows) {
        // A row of another read in the batch is left to it.
        if (!asked.has(row.id)) continue;
        objects.set(row.id, toStoredObject(row, decodedData));
        grantedScopes.set(row.id, row.object_scopes);
        if (row.owner !== null) grantedScopes.set(row.owner, row.owner_scopes);
      }
      return { objects, grantedScopes };
    },

    async getPages(request) {
      return (await readPages(request, false)).pages;
    },

    async getPagesWithObjects(request) {
      return readPages(request, true);
    },

    async getCounts(type, id1s) {
      if (id1s.length === 0) return new Map();
      const rows = await database.batchedRows<{ id1: number; count: number }>({
        key: `${statements.selectCounts.name}:${type}`,
        ids: id1s,
        send: async (client, all) => (await client.query<{ id1: number; count: number }>({ ...statements.selectCounts, values: [type, all] })).rows,
      });
      const asked = new Set(id1s);
      return zeroFilledCounts(id1s, rows.filter((row) => asked.has(row.id1)));
    },

    async getExisting(type, pairs) {
      const existing = new Set<string>();
      if (pairs.length === 0) return existing;
      const rows = await database.rows<{ id1: number; id2: number }>(statements.selectExisting, [
        type,
        pairs.map(([id1]) => id1),
        pairs.map(([, id2]) => id2),
      ]);
      for (const { id1, id2 } of rows) existing.add(`${id1}:${id2}`);
      return existing;
    },

    async findDeclaredIds(type, keys) {
      if (keys.length === 0) return new Map();
      // Planned on every call rather than prepared: an import fills the key table from empty, and a
      // plan cached while it was small would go on scanning it whole as it grows.
      await database.ready;
      const { rows } = await database.pool.query<{ key: string; id: string | number }>({ text: statements.selectDeclaredIds.text, values: [type, keys] });
      return new Map(rows.map((row) => [row.key, Number(row.id)]));
    },

    async search(request) {
      await database.ready;
      return search(database.pool, request);
    },
  };
}
