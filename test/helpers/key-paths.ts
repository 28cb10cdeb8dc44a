/**
 * The keys of a JSON answer as paths (`data[].from.id`), each with its JSON types and whether it
 * is in every object that could hold it; and the comparison of an answer's keys with a
 * description of the real service's answer written in the same terms.
 */

/** A JSON type as a description names it. */
type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/**
 * A description of one answer's keys: each path with its JSON types (`string`, `boolean|string`),
 * ending in `?` when the service sent it only for objects that held that data. Paths ending in
 * `[]` are the items of an array of strings or numbers; `*` stands for keys that are data (the
 * offsets of `message_tags`, the ids of an `ids=` answer); `~` for the JSON inside a string.
 */
export type KeyDescription = Record<string, string>;

export interface Shape {
  /** Object paths whose keys are data, read as `*`. */
  maps?: string[];
  /** String paths that hold JSON, read as `<path>~`. */
  strings?: string[];
}

interface Seen {
  types: Set<JsonType>;
  /** How many times the path occurs. */
  count: number;
}

export interface KeyPaths {
  paths: Map<string, Seen>;
  /** How many objects each object path holds (the parents of the paths below it). */
  objects: Map<string, number>;
  /** How many items with at least one element each array path holds. */
  filled: Map<string, number>;
}

const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);

/** Every key path of `json`, read with the shape a description gives it. */
export function keyPaths(json: unknown, shape: Shape = {}): KeyPaths {
  const maps = new Set(shape.maps ?? []);
  const strings = new Set(shape.strings ?? []);
  const found: KeyPaths = { paths: new Map(), objects: new Map(), filled: new Map() };
  const note = (path: string, value: unknown) => {
    const seen = found.paths.get(path) ?? { types: new Set(), count: 0 };
    seen.types.add(typeOf(value));
    seen.count += 1;
    found.paths.set(path, seen);
  };
  const below = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      if (value.length > 0) found.filled.set(path, (found.filled.get(path) ?? 0) + 1);
      for (const item of value) visit(item, `${path}[]`);
    } else if (value !== null && typeof value === 'object') {
      found.objects.set(path, (found.objects.get(path) ?? 0) + 1);
      for (const [key, child] of Object.entries(value)) visit(child, join(path, maps.has(path) ? '*' : key));
    }
  };
  const visit = (value: unknown, path: string) => {
    note(path, value);
    if (strings.has(path) && typeof value === 'string') {
      const inner = parsed(value);
      if (inner !== undefined) visit(inner, `${path}~`);
      return;
    }
    below(value, path);
  };
  // An answer that is not an object (a batch's list, a bare `true`) is a key of its own, ''.
  if (json === null || typeof json !== 'object' || Array.isArray(json)) note('', json);
  below(json, '');
  return found;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a key path hangs from: an object's key, an array's items, or the JSON inside a string. */
function parentOf(path: string): { parent: string; kind: 'key' | 'items' | 'json' } {
  if (path.endsWith('[]')) return { parent: path.slice(0, -2), kind: 'items' };
  if (path.endsWith('~')) return { parent: path.slice(0, -1), kind: 'json' };
  const dot = path.lastIndexOf('.');
  return { parent: dot < 0 ? '' : path.slice(0, dot), kind: 'key' };
}

/** How many places in the answer could hold the key at `path`. */
function holders(answer: KeyPaths, path: string): number {
  if (path === '') return 1;
  const { parent, kind } = parentOf(path);
  if (kind === 'items') return answer.filled.get(parent) ?? 0;
  if (kind === 'json') return answer.paths.get(parent)?.count ?? 0;
  return answer.objects.get(parent) ?? 0;
}

export interface KeyDifferences {
  /** Keys the real answer always carried, absent from some object that could hold them. */
  missing: string[];
  /** Keys the real answer carried when the object held the data, absent from every object here. */
  absent: string[];
  /** Keys of another JSON type: `path: real ≠ here`. */
  types: string[];
  /** Keys the real answer never carried. */
  extra: string[];
  /** Arrays the real answer always filled, empty here. */
  empty: string[];
  /** Paths in both, of the same type. */
  same: number;
}

/** Compares the keys of `answer` with a description of the real answer. */
export function compareKeys(described: KeyDescription, answer: KeyPaths): KeyDifferences {
  const result: KeyDifferences = { missing: [], absent: [], types: [], extra: [], empty: [], same: 0 };
  const entries = Object.entries(described).map(([path, text]) => ({
    path,
    optional: text.endsWith('?'),
    types: new Set(text.replace(/\?$/, '').split('|')),
  }));
  const wrongType = new Set<string>();
  // Below a key already found different, nothing more is said.
  const underDifference = (path: string, set: Set<string>) => [...set].some((top) => path.startsWith(`${top}.`) || path.startsWith(`${top}[]`) || path.startsWith(`${top}~`));
  const reported = new Set<string>();
  for (const { path, optional, types } of entries) {
    if (underDifference(path, reported)) continue;
    const here = answer.paths.get(path);
    const places = holders(answer, path);
    if (here === undefined) {
      // Where the object that would hold it is absent, so is the key.
      if (places === 0) continue;
      (optional ? result.absent : result.missing).push(path);
      reported.add(path);
      continue;
    }
    const strange = [...here.types].filter((type) => !types.has(type));
    if (strange.length > 0) {
      result.types.push(`${path}: ${[...types].join('|')} ≠ ${[...here.types].join('|')}`);
      wrongType.add(path);
      reported.add(path);
      continue;
    }
    result.same += 1;
    if (!optional && here.count < places && parentOf(path).kind === 'key') {
      result.missing.push(path);
      reported.add(path);
    }
    if (!optional && types.has('array') && answer.filled.get(path) === undefined && hasItems(described, path)) {
      result.empty.push(path);
    }
  }
  const known = new Set(Object.keys(described));
  const extras = new Set<string>();
  for (const [path, seen] of answer.paths) {
    if (known.has(path)) continue;
    // The items of a list of objects are described by their keys, not as a path of their own.
    if (path.endsWith('[]') && [...seen.types].every((type) => type === 'object')) continue;
    if (underDifference(path, extras) || underDifference(path, wrongType)) continue;
    extras.add(path);
  }
  result.extra = [...extras];
  return result;
}

/** Whether the description says what the items of the array at `path` hold. */
function hasItems(described: KeyDescription, path: string): boolean {
  return Object.keys(described).some((key) => key.startsWith(`${path}[]`));
}
