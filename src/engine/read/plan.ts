import { GraphError } from '../../errors.js';
import type { Selection } from '../../query/selection.js';
import type { AccessRule, EdgeDef, FieldDef, NodeTypeDef } from '../../schema/definition.js';
import type { Schema } from '../../schema/registry.js';
import type { ApiVersion } from '../../schema/versions.js';
import { checkModifiers } from './edge-options.js';

/**
 * How a node is shown when the request names none of its fields. Defaults never nest without
 * end, whatever a schema declares:
 * - `node`: read by its own path (`root`) or listed by an edge the request named: the version's
 *   default fields, edges among them;
 * - `item`: listed by an edge that was itself a default: the same less edges;
 * - `reference`: named by a reference field (`from`, `album`): the type's reference fields,
 *   never an edge; a type already shown as a reference on the way (`within`) shows its id alone.
 */
export type DefaultShape = { kind: 'node'; root: boolean } | { kind: 'item' } | { kind: 'reference'; within: readonly string[] };

export const READ_BY_PATH: DefaultShape = { kind: 'node', root: true };
export const LISTED: DefaultShape = { kind: 'node', root: false };
const DEFAULT_ITEM: DefaultShape = { kind: 'item' };

/**
 * One entry of a node's output, in output order, under its key: its name, or its `.as(alias)`.
 * `nested`: how the nodes it shows (a reference's node, an edge's items) are shown when its
 * selection names nothing inside them. `shownTo`: a default field sent only to a viewer who
 * passes this rule on the node (NodeTypeDef.fullDefaultFields).
 */
export type PlanEntry =
  | { kind: 'field'; key: string; field: FieldDef; selection: Selection; nested: DefaultShape; shownTo?: AccessRule }
  | { kind: 'edge'; key: string; edge: EdgeDef; selection: Selection; nested: DefaultShape };

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * Checks a selection against a type and orders it: the requested names in request order
 * (defaults of the node's shape when none were requested) and `id` last unless the client
 * placed it. A name asked twice under one key is answered once; under two aliases
 * (`likes.as(a),likes.as(b)`), twice.
 */
export function planSelection(
  schema: Schema,
  version: ApiVersion,
  type: NodeTypeDef,
  selections: readonly Selection[] | undefined,
  shape: DefaultShape = LISTED,
): PlanEntry[] {
  const implied = !selections || selections.length === 0;
  const requested = implied ? defaultNames(schema, version, type, shape).map(implicit) : selections;
  const referenced: DefaultShape = { kind: 'reference', within: shape.kind === 'reference' ? [...shape.within, type.name] : [] };
  const shownTo = implied && shape.kind !== 'reference' ? schema.defaultsShownTo(type, version) : undefined;
  const entries: PlanEntry[] = [];
  const seen = new Set<string>();
  for (const selection of requested) {
    const key = keyOf(selection);
    if (seen.has(key)) continue;
    seen.add(key);
    const field = schema.field(type, selection.name, version);
    if (field) {
      const rule = shownTo?.[field.name];
      entries.push({ kind: 'field', key, field, selection, nested: referenced, ...(rule ? { shownTo: rule } : {}) });
      continue;
    }
    const edge = schema.edge(type, selection.name, version);
    if (!edge) throw GraphError.nonexistingField(selection.name, type.label);
    checkModifiers(selection.name, selection.modifiers);
    entries.push({ kind: 'edge', key, edge, selection, nested: implied ? DEFAULT_ITEM : LISTED });
  }
  if (!seen.has('id')) {
    const id = schema.field(type, 'id', version);
    if (id) entries.push({ kind: 'field', key: 'id', field: id, selection: implicit('id'), nested: referenced });
  }
  return entries;
}

/** The names a node of this shape shows when the request names none; `id` comes on top. */
function defaultNames(schema: Schema, version: ApiVersion, type: NodeTypeDef, shape: DefaultShape): string[] {
  switch (shape.kind) {
    case 'node':
      return schema.defaultFields(type, version, shape.root);
    case 'item':
      return schema.defaultFields(type, version, false).filter((name) => schema.field(type, name, version) !== undefined);
    case 'reference':
      return shape.within.includes(type.name) ? [] : schema.referenceFields(type, version);
  }
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
