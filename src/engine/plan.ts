import { GraphError } from '../errors.js';
import type { Selection } from '../query/selection.js';
import type { EdgeDef, FieldDef, NodeTypeDef } from '../schema/definition.js';
import type { Schema } from '../schema/registry.js';
import type { ApiVersion } from '../schema/versions.js';
import { checkModifiers } from './edge-options.js';

/** One entry of a node's output, in output order, under its key: its name, or its `.as(alias)`. */
export type PlanEntry =
  | { kind: 'field'; key: string; field: FieldDef; selection: Selection }
  | { kind: 'edge'; key: string; edge: EdgeDef; selection: Selection };

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * Checks a selection against a type and orders it: the requested names in request order
 * (defaults when none were requested) and `id` last unless the client placed it. A name asked
 * twice under one key is answered once; under two aliases (`likes.as(a),likes.as(b)`), twice.
 */
export function planSelection(
  schema: Schema,
  version: ApiVersion,
  type: NodeTypeDef,
  selections: readonly Selection[] | undefined,
  root = false,
): PlanEntry[] {
  const requested = selections && selections.length > 0 ? selections : schema.defaultFields(type, version, root).map(implicit);
  const entries: PlanEntry[] = [];
  const seen = new Set<string>();
  for (const selection of requested) {
    const key = keyOf(selection);
    if (seen.has(key)) continue;
    seen.add(key);
    const field = schema.field(type, selection.name, version);
    if (field) {
      entries.push({ kind: 'field', key, field, selection });
      continue;
    }
    const edge = schema.edge(type, selection.name, version);
    if (!edge) throw GraphError.nonexistingField(selection.name, type.label);
    checkModifiers(selection.name, selection.modifiers);
    entries.push({ kind: 'edge', key, edge, selection });
  }
  if (!seen.has('id')) {
    const id = schema.field(type, 'id', version);
    if (id) entries.push({ kind: 'field', key: 'id', field: id, selection: implicit('id') });
  }
  return entries;
}

/** Where a selection goes in its node: its `.as(alias)`, checked, or its name. */
export function keyOf(selection: Selection): string {
  const alias = selection.modifiers.as;
  if (alias === undefined) return selection.name;
  if (!ALIAS.test(alias)) {
    throw GraphError.invalidParameter(`The alias (${alias.slice(0, 100)}) of field (${selection.name}) must be letters, digits and underscores`);
  }
  return alias;
}

function implicit(name: string): Selection {
  return { name, modifiers: {}, position: 0 };
}
