/**
 * Names are not storage. The first apply pins each type's object type, each field's data key and
 * each edge's association type; later declarations find theirs by name, or by a former name
 * listed in `aliases`, so a rename changes what clients call a thing and nothing that is stored.
 * The built-in Graph types (`data: graph`) pin nothing: their keys are the names given.
 */
import type { Declaration, StorageKeys } from './model.js';

export function storageKeysOf(declaration: Declaration, pinned: StorageKeys = { types: {}, fields: {}, edges: {} }): StorageKeys {
  const keys: StorageKeys = { types: {}, fields: {}, edges: {} };
  for (const [typeName, type] of Object.entries(declaration.types)) {
    const typeNames = [typeName, ...(type.aliases ?? [])];
    keys.types[typeName] = type.storage ?? firstPinned(pinned.types, typeNames) ?? typeName;
    for (const [fieldName, field] of Object.entries(type.fields ?? {})) {
      const candidates = typeNames.flatMap((t) => [fieldName, ...(field.aliases ?? [])].map((f) => `${t}.${f}`));
      keys.fields[`${typeName}.${fieldName}`] = field.storage ?? firstPinned(pinned.fields, candidates) ?? fieldName;
    }
    for (const [edgeName, edge] of Object.entries(type.edges ?? {})) {
      const candidates = typeNames.flatMap((t) => [edgeName, ...(edge.aliases ?? [])].map((e) => `${t}.${e}`));
      // Graph edges without storage are always empty: their key is empty.
      const fallback = declaration.data === 'graph' ? '' : `${typeName}.${edgeName}`;
      keys.edges[`${typeName}.${edgeName}`] = edge.storage ?? firstPinned(pinned.edges, candidates) ?? fallback;
    }
  }
  return keys;
}

function firstPinned(pinned: Record<string, string>, names: readonly string[]): string | undefined {
  for (const name of names) if (Object.hasOwn(pinned, name)) return pinned[name];
  return undefined;
}

/**
 * The record kept after an apply: the keys in use now, plus every key pinned before under a name
 * no longer declared, so re-applying an older file finds its data again until it is pruned.
 */
export function mergePinned(previous: StorageKeys | undefined, current: StorageKeys): StorageKeys {
  return {
    types: { ...previous?.types, ...current.types },
    fields: { ...previous?.fields, ...current.fields },
    edges: { ...previous?.edges, ...current.edges },
  };
}
