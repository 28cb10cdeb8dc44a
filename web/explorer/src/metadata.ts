/**
 * What the fields editor suggests comes from `metadata=1`: the node's own metadata for its
 * fields, and for the items of an edge (inside braces or `.fields(`) the metadata of one item of
 * that edge, found by asking for the first item's id. Types are learnt once per token.
 */
import { isRecord } from './guards.js';

interface FieldInfo {
  name: string;
  type: string;
  description: string;
}

export interface TypeInfo {
  type: string;
  fields: FieldInfo[];
  edges: string[];
}

/** Fetches a Graph path (`me?metadata=1`) with the current token; undefined on any failure. */
export type GraphGet = (pathAndQuery: string) => Promise<unknown>;

export class MetadataCatalog {
  private types = new Map<string, TypeInfo>();
  /** Node (as written: `me`, an id) → its type name. */
  private nodeTypes = new Map<string, Promise<string | undefined>>();
  /** `type.edge` → the type of the edge's items. */
  private edgeTargets = new Map<string, string>();
  /** Node and edge paths already sampled without finding an item, so they are not asked again. */
  private emptyPaths = new Set<string>();

  constructor(private readonly get: GraphGet) {}

  /** Forget everything: another token may see other nodes, with other ids. */
  reset(): void {
    this.types = new Map();
    this.nodeTypes = new Map();
    this.edgeTargets = new Map();
    this.emptyPaths = new Set();
  }

  /** The type of the items `edges` below `node`; the node's own type without edges. */
  async typeAt(node: string, edges: readonly string[]): Promise<TypeInfo | undefined> {
    let typeName = await this.nodeType(node);
    for (let depth = 1; depth <= edges.length && typeName !== undefined; depth++) {
      typeName = await this.edgeTarget(typeName, node, edges.slice(0, depth));
    }
    return typeName === undefined ? undefined : this.types.get(typeName);
  }

  private nodeType(node: string): Promise<string | undefined> {
    let known = this.nodeTypes.get(node);
    if (!known) {
      known = this.learn(`${encodeURIComponent(node)}?metadata=1&fields=id`);
      this.nodeTypes.set(node, known);
      // A failure (no token yet, a typo) is not remembered: the next keystroke may fix it.
      void known.then((type) => type === undefined && this.nodeTypes.delete(node));
    }
    return known;
  }

  private async edgeTarget(parentType: string, node: string, edges: readonly string[]): Promise<string | undefined> {
    const edge = edges[edges.length - 1]!;
    const key = `${parentType}.${edge}`;
    const known = this.edgeTargets.get(key);
    if (known !== undefined) return known;
    const parent = this.types.get(parentType);
    if (!parent?.edges.includes(edge)) return undefined;
    const path = `${node}/${edges.join('/')}`;
    if (this.emptyPaths.has(path)) return undefined;

    const sample = await this.get(`${encodeURIComponent(node)}?fields=${encodeURIComponent(firstItemSelection(edges))}`);
    const itemId = firstItemId(sample, edges);
    const target = itemId === undefined ? undefined : await this.learn(`${encodeURIComponent(itemId)}?metadata=1&fields=id`);
    if (target === undefined) this.emptyPaths.add(path);
    else this.edgeTargets.set(key, target);
    return target;
  }

  /** Reads a node's metadata and keeps its type; returns the type's name. */
  private async learn(pathAndQuery: string): Promise<string | undefined> {
    const body = await this.get(pathAndQuery);
    const metadata = isRecord(body) ? body.metadata : undefined;
    if (!isRecord(metadata) || typeof metadata.type !== 'string') return undefined;
    const fields = Array.isArray(metadata.fields) ? metadata.fields.filter(isFieldInfo) : [];
    const edges = isRecord(metadata.connections) ? Object.keys(metadata.connections) : [];
    this.types.set(metadata.type, { type: metadata.type, fields, edges });
    return metadata.type;
  }
}

/** `['friends', 'feed']` → `friends.limit(1){feed.limit(1){id}}`: the first item at that depth. */
function firstItemSelection(edges: readonly string[]): string {
  return edges.reduceRight((inner, edge) => `${edge}.limit(1){${inner}}`, 'id');
}

function firstItemId(body: unknown, edges: readonly string[]): string | undefined {
  let node: unknown = body;
  for (const edge of edges) {
    const collection = isRecord(node) ? node[edge] : undefined;
    const items = isRecord(collection) ? collection.data : undefined;
    node = Array.isArray(items) ? items[0] : undefined;
  }
  return isRecord(node) && typeof node.id === 'string' ? node.id : undefined;
}

function isFieldInfo(value: unknown): value is FieldInfo {
  return isRecord(value) && typeof value.name === 'string' && typeof value.type === 'string' && typeof value.description === 'string';
}
