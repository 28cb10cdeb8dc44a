import type { Viewer } from '../auth/viewer.js';
import type { ReadContext } from '../engine/request/context.js';
import type { ApiVersion } from '../schema/versions.js';
import type { GraphMethod, GraphRequest } from './graph-request.js';

/** What a special path's answer is given of its request; never the request itself. */
interface PathCall {
  method: GraphMethod;
  /** The path's components after any version prefix: the node (or the service's own name), an edge, an item of it. */
  id: string;
  edge: string | undefined;
  item: string | undefined;
  params: Record<string, string>;
  /** Scheme and host of the links the answer holds (GraphRequest.linkBase). */
  linkBase: string;
}

interface PathEntry {
  /** Its components, a `:name` standing for any one: `debug_token`, `:id/permissions/:item`. */
  path: string;
  methods: readonly GraphMethod[];
  /**
   * A path of the service itself rather than of the graph (the token endpoint, `debug_token`):
   * answered as it stands, before `ids=`, a batch or uploads are looked at.
   */
  service?: boolean;
}

/** Answered for the viewer the request's token names, in the engine's context of the request. */
interface ViewerPath extends PathEntry {
  caller: 'token';
  answer(context: ReadContext, call: PathCall): Promise<unknown>;
}

/** The request proves its caller itself (the token endpoint: an app by its secret); no token is asked for. */
interface ProvenPath extends PathEntry {
  caller: 'proven';
  prove(params: Record<string, string>): Promise<Viewer>;
  answer(caller: Viewer, version: ApiVersion, call: PathCall): Promise<unknown>;
}

/**
 * Answered to anyone, without a token (a public picture). A request with a token, or about
 * `me` (which only a token names), is read as any other path.
 */
interface PublicPath extends PathEntry {
  caller: 'none';
  answer(call: PathCall): Promise<unknown>;
}

export type SpecialPath = ViewerPath | ProvenPath | PublicPath;

/** A special path found for a request, and what its answer is given. */
export interface FoundPath {
  entry: SpecialPath;
  call: PathCall;
}

/**
 * The paths answered by a room of their own rather than by the engine's reads and writes: the
 * token endpoint and `debug_token` (auth), search (engine), a public picture (the Graph
 * package), webhook subscriptions (webhooks). The composition root fills the table at start-up
 * from plain functions of those rooms; dispatch looks a request up in it.
 */
export class SpecialPaths {
  /** The entries by their number of components, each with its components split. */
  private readonly byLength = new Map<number, Array<{ parts: string[]; entry: SpecialPath }>>();

  constructor(entries: readonly SpecialPath[]) {
    for (const entry of entries) {
      const parts = entry.path.split('/');
      const list = this.byLength.get(parts.length) ?? [];
      list.push({ parts, entry });
      this.byLength.set(parts.length, list);
    }
  }

  /** The service's own path (`service`) or the graph path that the request names, if it is special. */
  find(request: GraphRequest, service: boolean): FoundPath | undefined {
    const { components, method } = request;
    const candidates = this.byLength.get(components.length) ?? [];
    const found = candidates.find(
      ({ parts, entry }) =>
        (entry.service ?? false) === service &&
        entry.methods.includes(method) &&
        parts.every((part, index) => part.startsWith(':') || part === components[index]) &&
        (entry.caller !== 'none' || (!request.accessToken && components[0] !== 'me')),
    );
    if (!found) return undefined;
    const [id, edge, item] = components;
    return { entry: found.entry, call: { method, id: id!, edge, item, params: request.params, linkBase: request.linkBase } };
  }
}
