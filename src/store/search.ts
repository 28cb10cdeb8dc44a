import type { ObjectId } from '../ids.js';

/**
 * The store's full-text index. Which object types it holds, and which data keys of theirs, is
 * declared by the caller (the schema's node types) and kept in the database itself, so the
 * database's own triggers index every object in the transaction that writes it, whatever path
 * the write takes (requests, seeding, imports, snapshot restores).
 */
export interface SearchableType {
  type: string;
  /** Data keys whose text is indexed, in order; a dotted key reaches into an object (`location.city`). */
  fields: readonly string[];
  /** Data keys of the object's position, in degrees. */
  point?: { latitude: string; longitude: string };
}

export interface SearchRequest {
  type: string;
  /** Every word must begin a word of the object's indexed text. At least one; letters and digits only. */
  words: readonly string[];
  /** Most objects to return (callers ask one more than they show, to learn if more exist). */
  limit: number;
  /** Only objects with a larger id: results are listed by ascending id, so pages never shift. */
  after?: ObjectId;
  /** Only objects with a smaller id; the page is the one just before it. */
  before?: ObjectId;
  /** Only objects with a position. */
  located?: boolean;
  /** Only objects with a position at most `meters` from this one. */
  near?: { latitude: number; longitude: number; meters: number };
  /** Keep only objects (people) that granted `appId` the permission `scope`. */
  grantedTo?: { appId: ObjectId; scope: string };
}

/** What a change of the declaration makes the store index again, told before it starts. */
export interface SearchReindex {
  /** The declared types indexed again that have stored objects, by name. */
  types: readonly string[];
  /** How many stored objects those types have: one pass over the objects table indexes them all. */
  objects: number;
}

/** Told of a reindex before it starts, when it has objects to index (a large one takes a while). */
export type OnSearchReindex = (reindex: SearchReindex) => void;

/** Tells `onReindex` of a reindex, from the counts of stored objects by type, when it has any object to index. */
export function announceReindex(counted: ReadonlyArray<{ type: string; objects: number }>, onReindex: OnSearchReindex): void {
  const objects = counted.reduce((sum, row) => sum + row.objects, 0);
  if (objects > 0) onReindex({ types: counted.map((row) => row.type), objects });
}

/** The reindex in words, as the command line says it before it starts: "indexing 1,000 objects of types page, user for search…". */
export function describeSearchReindex({ types, objects }: SearchReindex): string {
  return `indexing ${objects.toLocaleString('en-US')} object${objects === 1 ? '' : 's'} of type${types.length === 1 ? '' : 's'} ${types.join(', ')} for search…`;
}

/** A row of the declaration table: one indexed key of a type, by role and place. */
export interface SearchFieldRow {
  type: string;
  role: 'text' | 'latitude' | 'longitude';
  key: string;
  position: number;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,3}$/;
const WORD = /^[\p{L}\p{N}]{1,64}$/u;
/** More words than a person types into a search box; the query stays cheap. */
export const MAX_SEARCH_WORDS = 16;

/** The declaration as rows, with every key checked: keys become JSON paths inside SQL. */
export function searchFieldRows(types: readonly SearchableType[]): SearchFieldRow[] {
  const rows: SearchFieldRow[] = [];
  for (const { type, fields, point } of types) {
    const keys: Array<[SearchFieldRow['role'], string]> = fields.map((key) => ['text', key]);
    if (point) keys.push(['latitude', point.latitude], ['longitude', point.longitude]);
    keys.forEach(([role, key], position) => {
      if (!KEY.test(key)) throw new Error(`Search: "${type}.${key}" is not a plain data key`);
      rows.push({ type, role, key, position });
    });
  }
  return rows;
}

/** What a declaration makes the store do to its index: the types whose declaration changed, and their declared rows. */
export interface SearchReindexPlan {
  /** Types whose rows differ between the stored declaration and the new one; their index is dropped. */
  changed: string[];
  /** The new declaration's rows of those types. */
  rows: SearchFieldRow[];
  /** The changed types still declared, indexed again from their stored objects (a type no longer declared is only dropped). */
  indexed: string[];
}

/** Compares the stored declaration with the new one, type by type, as both dialects reindex from it. */
export function searchReindexPlan(stored: readonly SearchFieldRow[], declared: readonly SearchFieldRow[]): SearchReindexPlan {
  const text = (rows: readonly SearchFieldRow[], type: string) =>
    JSON.stringify(rows.filter((row) => row.type === type).map((row) => [row.role, row.key, row.position]).sort());
  const types = new Set([...stored, ...declared].map((row) => row.type));
  const changed = [...types].filter((type) => text(stored, type) !== text(declared, type)).sort();
  const rows = declared.filter((row) => changed.includes(row.type));
  return { changed, rows, indexed: [...new Set(rows.map((row) => row.type))] };
}

/** Refuses a request the index cannot answer cheaply; the engine never sends one. */
export function checkSearchRequest(request: SearchRequest): void {
  if (request.words.length === 0 || request.words.length > MAX_SEARCH_WORDS || !request.words.every((word) => WORD.test(word))) {
    throw new RangeError(`Search needs 1 to ${MAX_SEARCH_WORDS} words of letters and digits, got ${JSON.stringify(request.words)}`);
  }
  if (!Number.isInteger(request.limit) || request.limit < 0) throw new RangeError(`Search limit must be a non-negative integer, got ${request.limit}`);
  if (request.after !== undefined && request.before !== undefined) throw new RangeError('Search takes after or before, not both');
}

/** Metres per degree of latitude, and of longitude at the equator. */
const METRES_PER_DEGREE_LATITUDE = 110_574;
const METRES_PER_DEGREE_LONGITUDE = 111_320;

/**
 * `near` as the numbers of a flat-earth distance test that plain SQL can evaluate without
 * trigonometry: (Δlatitude·ky)² + (Δlongitude·kx)² ≤ metres², with kx taken at the centre's
 * latitude. Within the 50 km a search may span, it is off by well under one per cent.
 */
export function nearTerms(near: NonNullable<SearchRequest['near']>): { latitude: number; longitude: number; ky: number; kx: number; squared: number } {
  return {
    latitude: near.latitude,
    longitude: near.longitude,
    ky: METRES_PER_DEGREE_LATITUDE,
    kx: METRES_PER_DEGREE_LONGITUDE * Math.cos((near.latitude * Math.PI) / 180),
    squared: near.meters * near.meters,
  };
}
