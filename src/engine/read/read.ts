import { GraphError } from '../../errors.js';
import { FieldsParser } from '../../query/parser.js';
import type { Selection } from '../../query/selection.js';
import type { NodeTypeDef } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import { renderMetadata } from '../../schema/metadata.js';
import { isReader, loadAccess, requireOwnApp } from '../access/access.js';
import type { ReadContext } from '../request/context.js';
import { loadEdge, startPageRead } from './edges.js';
import { knownRoot, loadRoots } from './node-ids.js';
import { planSelection, READ_BY_PATH, type PlanEntry } from './plan.js';
import { readersOf, renderNodes } from './render.js';
import type { Json } from '../../ids.js';
import type { Redirect } from '../../schema/behaviours.js';

export interface NodeRead {
  fields?: string;
  metadata?: boolean;
  /** Query parameters that stand for the modifiers of the node's edges (`limit`, `since`, `until`); undefined ones are absent. */
  edgeDefaults?: Record<string, string | undefined>;
}

/** `GET /<id>`: the node with the requested (or default) fields, and its metadata when asked. */
export async function readNode(context: ReadContext, idText: string, read: NodeRead = {}): Promise<Json> {
  return (await readNodes(context, [idText], read))[0]!;
}

/** `GET /?ids=a,b`: each node, keyed by its id exactly as given (`me` stays `me`). */
export async function readManyNodes(context: ReadContext, idTexts: readonly string[], read: NodeRead = {}): Promise<Json> {
  return keyedByText(idTexts, await readNodes(context, idTexts, read));
}

/**
 * The one read of nodes: each id's node, in the order given, loaded together and rendered
 * together for nodes of one type. A node read by its path is a read of one id.
 */
async function readNodes(context: ReadContext, idTexts: readonly string[], read: NodeRead): Promise<Json[]> {
  // Parsed before the nodes are read, so that first-level pages can be read alongside them; a
  // node that cannot be served is still the error a request gets before fields it cannot parse.
  const parsed =
    read.fields === undefined
      ? undefined
      : await parseFieldsPaced(context, read.fields).catch(async (error: unknown) => {
          await loadRoots(context, idTexts);
          throw error;
        });
  const early = idTexts.length === 1 ? startFirstLevelPages(context, idTexts[0]!, parsed, read.edgeDefaults) : undefined;
  const roots = await loadRoots(context, idTexts);
  const rendered = new Map<number, Json>();
  for (const [type, objects] of groupByType(roots)) {
    const selections = parsed === undefined ? undefined : withEdgeDefaults(context, type.name, parsed, read.edgeDefaults);
    // A level is planned once: the plan that started the first-level pages renders them.
    const planned = early?.type === type ? early.plan : undefined;
    for (const [id, node] of await renderNodes(context, type, objects, selections, READ_BY_PATH, planned)) rendered.set(id, node);
  }
  return roots.map(({ object, type }) => {
    const node = rendered.get(object.id)!;
    if (!read.metadata) return node;
    // Every rendered node carries its id; metadata goes just before it.
    const { id, ...rest } = node;
    const metadata = renderMetadata(context.schema, context.version, type, (edge) => context.link(`/${String(id)}/${edge}`, context.linkParams));
    return { ...rest, metadata, id };
  });
}

/**
 * The pages of the first-level edges of `me`, started alongside the node itself: a query then
 * pays one round trip per level of nesting. Answers the plan that started them, for the render
 * to use. A selection the plan refuses starts nothing; the render raises its error, after the
 * node's own.
 */
function startFirstLevelPages(
  context: ReadContext,
  idText: string,
  parsed: Selection[] | undefined,
  edgeDefaults: NodeRead['edgeDefaults'],
): { type: NodeTypeDef; plan: PlanEntry[] } | undefined {
  const known = knownRoot(context, idText);
  if (!known) return undefined;
  let plan: PlanEntry[];
  try {
    const selections = parsed === undefined ? undefined : withEdgeDefaults(context, known.type.name, parsed, edgeDefaults);
    plan = planSelection(context.schema, context.version, known.type, selections, READ_BY_PATH);
  } catch {
    return undefined;
  }
  for (const entry of plan) if (entry.kind === 'edge') startPageRead(context, known.type, entry.edge, [known.id], entry.selection.modifiers);
  return { type: known.type, plan };
}

/**
 * `GET /<id>/<edge>[/<alias>]`: one page of the edge, with paging links that repeat the request.
 * An edge that answers its own path in a way of its own (a picture) answers so, whoever asks.
 */
export async function readEdge(
  context: ReadContext,
  idText: string,
  edgeName: string,
  params: Record<string, string>,
  aliasText?: string,
): Promise<Json | Redirect> {
  const known = knownRoot(context, idText);
  const edge = known && context.schema.edge(known.type, edgeName, context.version);
  if (known && edge && aliasText === undefined) startPageRead(context, known.type, edge, [known.id], params);
  const roots = await loadRoots(context, [idText]);
  // Some edges answer their own path alike whoever asks (pictures are public, with or without a token).
  const ownAnswer = aliasText === undefined ? context.schema.edge(roots[0]!.type, edgeName, context.version)?.special?.answerPath : undefined;
  if (ownAnswer) return ownAnswer(context, params);
  const [answer] = await readEdgeOf(context, roots, edgeName, params, aliasText);
  return answer!;
}

/** `GET /<edge>?ids=a,b`: the edge's first page for each id, keyed by the id as given. */
export async function readManyEdges(context: ReadContext, idTexts: readonly string[], edgeName: string, params: Record<string, string>): Promise<Json> {
  return keyedByText(idTexts, await readEdgeOf(context, await loadRoots(context, idTexts), edgeName, params));
}

/** Tokens of a `fields` text read between checkpoints: a fraction of a millisecond of work. */
const PARSE_STEPS = 500;

/** The request's `fields`, parsed a few tokens at a time between the request's checkpoints. */
async function parseFieldsPaced(context: ReadContext, text: string): Promise<Selection[]> {
  const parser = new FieldsParser(text);
  while (!parser.parse(PARSE_STEPS)) await context.budget.pace();
  return parser.selections;
}

type Root = Awaited<ReturnType<typeof loadRoots>>[number];

/** One page of the edge for each root, in order, loaded together for roots of one type. */
async function readEdgeOf(
  context: ReadContext,
  roots: readonly Root[],
  edgeName: string,
  params: Record<string, string>,
  aliasText?: string,
): Promise<Json[]> {
  const children = params.fields === undefined ? undefined : await parseFieldsPaced(context, params.fields);
  const answers = new Map<number, Json>();
  for (const [type, objects] of groupByType(roots)) {
    const edge = context.schema.edge(type, edgeName, context.version);
    if (!edge || (aliasText !== undefined && aliasText !== edge.alias)) {
      throw GraphError.unknownPath(`/${[edgeName, aliasText].filter((part) => part !== undefined).join('/')}`);
    }
    // Asking for an app's own edge with the wrong token is a mistake worth naming, not an empty page.
    if (edge.readers === 'app') for (const object of objects) requireOwnApp(context.viewer, object.id);
    const access = await loadAccess(context, type, objects, [edge]);
    const readers = await readersOf(context, edge.read, objects);
    const allowed = objects.filter((object) => access.readable(object, edge) && isReader(context.viewer, edge, object) && readers(object));
    const collections = await loadEdge(context, type, edge, allowed, { raw: params, children, nested: false, requestParams: params });
    for (const object of objects) answers.set(object.id, collections.get(object.id) ?? { data: [] });
  }
  return roots.map((root) => answers.get(root.object.id)!);
}

function groupByType(roots: readonly Root[]): Map<Root['type'], StoredObject[]> {
  const groups = new Map<Root['type'], StoredObject[]>();
  for (const { object, type } of roots) {
    const group = groups.get(type) ?? [];
    if (!group.some((existing) => existing.id === object.id)) group.push(object);
    groups.set(type, group);
  }
  return groups;
}

/** Fresh keys, defined as data: an id written `__proto__` would fail to load before it got here. */
function keyedByText(idTexts: readonly string[], values: readonly Json[]): Json {
  return Object.fromEntries(idTexts.map((text, index) => [text, values[index]]));
}

const DEFAULTABLE = ['limit', 'since', 'until'] as const;

/**
 * `/<post>?fields=likes.summary(true)&limit=5&since=…` reads like `/<post>/likes?limit=5&since=…`:
 * query parameters stand for modifiers the first-level edges did not write themselves.
 */
function withEdgeDefaults(
  context: ReadContext,
  typeName: string,
  selections: Selection[],
  defaults: Record<string, string | undefined> | undefined,
): Selection[] {
  const given = DEFAULTABLE.filter((name) => defaults?.[name] !== undefined);
  if (given.length === 0) return selections;
  const type = context.schema.type(typeName)!;
  return selections.map((selection) => {
    if (!context.schema.edge(type, selection.name, context.version)) return selection;
    const modifiers = { ...selection.modifiers };
    for (const name of given) modifiers[name] ??= defaults![name]!;
    return { ...selection, modifiers };
  });
}
