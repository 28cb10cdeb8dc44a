import { GraphError } from '../errors.js';
import { parseFields } from '../query/parser.js';
import type { Selection } from '../query/selection.js';
import { renderMetadata } from '../schema/metadata.js';
import { isReader, loadAccess, requireOwnApp } from './access.js';
import type { ReadContext } from './context.js';
import { loadEdge } from './edges.js';
import { loadRoot } from './node-ids.js';
import { pictureAnswer, type Redirect } from './picture.js';
import { renderNodes, type Json } from './render.js';

export interface NodeRead {
  fields?: string;
  metadata?: boolean;
  /** Query parameters that stand for the modifiers of the node's edges (`limit`, `since`, `until`); undefined ones are absent. */
  edgeDefaults?: Record<string, string | undefined>;
}

/** `GET /<id>`: the node with the requested (or default) fields, and its metadata when asked. */
export async function readNode(context: ReadContext, idText: string, read: NodeRead = {}): Promise<Json> {
  const { object, type } = await loadRoot(context, idText);
  const selections = read.fields === undefined ? undefined : withEdgeDefaults(context, type.name, parseFields(read.fields), read.edgeDefaults);
  const node = (await renderNodes(context, type, [object], selections)).get(object.id)!;
  if (!read.metadata) return node;
  // Every rendered node carries its id; metadata goes just before it.
  const { id, ...rest } = node;
  const metadata = renderMetadata(type, (edge) => context.link(`/${String(id)}/${edge}`, context.linkParams));
  return { ...rest, metadata, id };
}

/**
 * `GET /<id>/<edge>[/<alias>]`: one page of the edge, with paging links that repeat the request.
 * A picture edge answers as pictureAnswer does.
 */
export async function readEdge(
  context: ReadContext,
  idText: string,
  edgeName: string,
  params: Record<string, string>,
  aliasText?: string,
): Promise<Json | Redirect> {
  const { object, type } = await loadRoot(context, idText);
  const edge = context.schema.edge(type, edgeName);
  if (!edge || (aliasText !== undefined && aliasText !== edge.alias)) {
    throw GraphError.unknownPath(`/${[edgeName, aliasText].filter((part) => part !== undefined).join('/')}`);
  }
  // Asking for an app's own edge with the wrong token is a mistake worth naming, not an empty page.
  if (edge.readers === 'app') requireOwnApp(context.viewer, object.id);
  // Pictures are public: the same answer whoever asks, with or without a token.
  if (edge.special === 'picture') return pictureAnswer(context.publicUrl, params);
  const access = await loadAccess(context, [object], [edge.scope]);
  if (!access(object, edge.scope) || !isReader(context.viewer, edge, object)) return { data: [] };
  const children = params.fields === undefined ? undefined : parseFields(params.fields);
  const collections = await loadEdge(context, type, edge, [object], {
    raw: params,
    children,
    nested: false,
    requestParams: params,
  });
  return collections.get(object.id) ?? { data: [] };
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
    if (!context.schema.edge(type, selection.name)) return selection;
    const modifiers = { ...selection.modifiers };
    for (const name of given) modifiers[name] ??= defaults![name]!;
    return { ...selection, modifiers };
  });
}
