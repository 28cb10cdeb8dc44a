import { GraphError } from '../../errors.js';
import type { Selection } from '../../query/selection.js';
import type { EdgeCatalogue } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import { keyOf } from './plan.js';
import type { Json } from '../../ids.js';

/**
 * A catalogue edge under each parent: every item in one page, whoever the parent is, so it costs
 * no store call. `fields=` keeps the named keys in the order asked; a name no item has is an error,
 * as a nonexisting field of a node is.
 */
export function loadCatalogueEdge(
  catalogue: EdgeCatalogue,
  parents: readonly StoredObject[],
  children: readonly Selection[] | undefined,
): Map<number, Json> {
  const data = catalogue.items.map((item) => pick(item, children, catalogue.label));
  return new Map(parents.map((parent) => [parent.id, { data }]));
}

function pick(value: unknown, selections: readonly Selection[] | undefined, label: string): unknown {
  if (selections === undefined || selections.length === 0) return value;
  if (Array.isArray(value)) return value.map((inner) => pick(inner, selections, label));
  if (value === null || typeof value !== 'object') return value;
  const item = value as Readonly<Record<string, unknown>>;
  const picked: Json = {};
  for (const selection of selections) {
    if (!Object.hasOwn(item, selection.name)) throw GraphError.nonexistingField(selection.name, label);
    picked[keyOf(selection)] = pick(item[selection.name], selection.children, label);
  }
  return picked;
}
