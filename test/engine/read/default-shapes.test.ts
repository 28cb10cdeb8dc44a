/**
 * No read without `fields` nests without end: every type's default fields, in every version, by
 * its own path and inside other answers, are walked through every edge and reference they name,
 * as the engine plans them, to a bounded depth. A reference whose target the schema does not
 * pin may name a node of any type, so the walk follows it into each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LISTED, planSelection, READ_BY_PATH, type DefaultShape, type PlanEntry } from '../../../src/engine/read/plan.js';
import { parseFields } from '../../../src/query/parser.js';
import type { Selection } from '../../../src/query/selection.js';
import type { FieldDef, NodeTypeDef } from '../../../src/schema/definition.js';
import { Schema } from '../../../src/schema/registry.js';
import { PUBLISHED_VERSIONS, rules, type ApiVersion } from '../../../src/schema/versions.js';
import { graphSchema } from '../../../src/graph/graph-schema.js';

/**
 * How deep the answer of a node of `type` nests, following every default; throws with the path
 * once it is deeper than `limit`.
 */
function nesting(schema: Schema, version: ApiVersion, type: NodeTypeDef, selections: Selection[] | undefined, shape: DefaultShape, path: string[], limit: number): number {
  if (path.length > limit) throw new Error(`defaults nest without end in ${version}: ${path.join(' > ')}`);
  let deepest = 0;
  for (const entry of planSelection(schema, version, type, selections, shape)) {
    for (const [target, children] of nestedNodes(schema, version, entry)) {
      const depth = 1 + nesting(schema, version, target, children, entry.nested, [...path, `${type.name}.${entry.key}`], limit);
      deepest = Math.max(deepest, depth);
    }
  }
  return deepest;
}

/** The types of the nodes an entry may show, each with the selection it gets: an edge's items, a reference's node. */
function nestedNodes(schema: Schema, version: ApiVersion, entry: PlanEntry): Array<[NodeTypeDef, Selection[] | undefined]> {
  const asked = entry.selection.children && entry.selection.children.length > 0 ? entry.selection.children : undefined;
  if (entry.kind === 'edge') return [[schema.type(entry.edge.target)!, asked]];
  const source = entry.field.source;
  if (source?.kind === 'owner') return schema.types.map((type) => [type, asked]);
  if (source?.kind !== 'ref' || (source.idWhile && rules.has(source.idWhile, version))) return [];
  const selections = asked ?? (source.fields === undefined ? undefined : parseFields(source.fields));
  const targets = source.target === undefined ? schema.types : [schema.type(source.target)!];
  // A declared sub-selection names fields of the types it is meant for: a type without them is no target.
  return targets
    .filter((type) => !selections || selections.every(({ name }) => schema.field(type, name, version) ?? schema.edge(type, name, version)))
    .map((type) => [type, selections]);
}

function walkEveryType(schema: Schema): number {
  let deepest = 0;
  const limit = schema.types.length + 3;
  for (const { name: version } of PUBLISHED_VERSIONS) {
    for (const type of schema.types) {
      for (const shape of [READ_BY_PATH, LISTED]) deepest = Math.max(deepest, nesting(schema, version, type, undefined, shape, [type.name], limit));
    }
  }
  return deepest;
}

const idField: FieldDef = { name: 'id', type: 'numeric string', description: 'Its id.', source: { kind: 'id' } };
const refField = (name: string, target: string): FieldDef => ({ name, type: target, description: `A ${target}.`, source: { kind: 'ref', target } });

/**
 * Two types whose defaults name each other every way a schema may: minimal defaults by
 * reference, richer ones (before v2.4) by edge and by reference, and references to themselves.
 */
function cyclicSchema(): Schema {
  const type = (name: string, other: string): NodeTypeDef => ({
    name,
    label: name,
    idForm: 'plain',
    visibility: 'public',
    defaultFields: [other, 'self'],
    fullDefaultFields: { names: ['id', other, 'self', `${other}s`], reference: [other, 'self'] },
    fields: [idField, refField(other, other), refField('self', name)],
    edges: [{ name: `${other}s`, description: `Its ${other}s.`, target: other, assoc: `${name}_${other}s` }],
  });
  return new Schema([type('a', 'b'), type('b', 'a')]);
}

describe('default fields never nest without end', () => {
  it('walks every type of the built-in schema, in every version, to a bounded depth', () => {
    const deepest = walkEveryType(graphSchema());
    // A v2.0 post: its comments, each comment's author.
    assert.ok(deepest >= 2, `the walk went ${deepest} deep`);
  });

  it('walks a schema whose types name each other in their defaults, by edge and by reference', () => {
    walkEveryType(cyclicSchema());
  });

  it('shows a reference inside a reference of the same type by its id alone', () => {
    const schema = cyclicSchema();
    const a = schema.type('a')!;
    const plan = planSelection(schema, 'v2.0', a, undefined, { kind: 'reference', within: ['b', 'a'] });
    assert.deepEqual(plan.map((entry) => entry.key), ['id']);
    const items = planSelection(schema, 'v2.0', a, undefined, { kind: 'item' });
    assert.deepEqual(items.map((entry) => entry.key), ['id', 'b', 'self'], 'the items of a default edge list no edge');
  });
});
