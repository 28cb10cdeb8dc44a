import { GraphError } from '../errors.js';
import type { Selection } from '../query/selection.js';
import type { EdgeDef, FieldDef, NodeTypeDef } from '../schema/definition.js';
import type { Schema } from '../schema/registry.js';
import { checkModifiers } from './edge-options.js';

/** One entry of a node's output, in output order. */
export type PlanEntry =
  | { kind: 'field'; field: FieldDef; selection: Selection }
  | { kind: 'edge'; edge: EdgeDef; selection: Selection };

/**
 * Checks a selection against a type and orders it: the requested names in request order
 * (defaults when none were requested) and `id` last unless the client placed it.
 */
export function planSelection(schema: Schema, type: NodeTypeDef, selections: readonly Selection[] | undefined): PlanEntry[] {
  const requested = selections && selections.length > 0 ? selections : type.defaultFields.map(implicit);
  const entries: PlanEntry[] = [];
  const seen = new Set<string>();
  for (const selection of requested) {
    if (seen.has(selection.name)) continue;
    seen.add(selection.name);
    const field = schema.field(type, selection.name);
    if (field) {
      entries.push({ kind: 'field', field, selection });
      continue;
    }
    const edge = schema.edge(type, selection.name);
    if (!edge) throw GraphError.nonexistingField(selection.name, type.label);
    checkModifiers(selection.name, selection.modifiers);
    entries.push({ kind: 'edge', edge, selection });
  }
  if (!seen.has('id')) {
    const id = schema.field(type, 'id');
    if (id) entries.push({ kind: 'field', field: id, selection: implicit('id') });
  }
  return entries;
}

function implicit(name: string): Selection {
  return { name, modifiers: {}, position: 0 };
}
