import { businessOf, tokenForBusiness } from '../auth/business-tokens.js';
import type { Viewer } from '../auth/viewer.js';
import type { FetchLimits } from '../media/fetch-image.js';
import type { MediaStore } from '../media/media-store.js';
import type { Schema } from '../schema/registry.js';
import type { FieldContext } from '../schema/definition.js';
import type { ApiVersion } from '../schema/versions.js';
import type { Store } from '../store/store.js';
import { CursorCodec } from './cursors.js';
import type { PageLimits } from './edge-options.js';
import { CostBudget } from './cost-budget.js';
import { RequestObjects } from './request-objects.js';
import { RequestPages } from './request-pages.js';

/** Everything one read needs; built per request by the caller (the HTTP layer, or a test). */
export interface ReadContext {
  store: Store;
  schema: Schema;
  viewer: Viewer;
  /** The API version the request is answered in: the one in its path, else its app's, else the server's. */
  version: ApiVersion;
  /** Unix seconds of the request. */
  now: number;
  /**
   * The store's auth version read before anything was written for this request; present only for
   * reads that write nothing, which may then trust what later requests cached under it.
   */
  authVersion?: number;
  /** When the request's own work began (`performance.now()`): its first slice of work counts from there. */
  startedAt?: number;
  publicUrl: string;
  profileHost: string;
  limits: PageLimits;
  /** Lifetime, in seconds, of the short-lived user tokens Loom issues (test users'). */
  tokenLifetime: number;
  /** Where uploads go, the largest image (`maxBytes`) and video accepted, and whether a `url` may be private. */
  media: { store: MediaStore; maxVideoBytes: number } & FetchLimits;
  /** An absolute link to a Graph path (`/123/likes`) with these query parameters. */
  link(path: string, params: Record<string, string>): string;
  /** Parameters every generated link carries so it works as it stands (the access token, its proof). */
  linkParams: Record<string, string>;
  /** The installation's key of `token_for_business` (auth/business-tokens). */
  businessKey: string;
  cursors: CursorCodec;
  fieldContext: FieldContext;
  /** What the request has spent of its cost limits, and when it should pause for others. */
  budget: CostBudget;
  /** The objects this request has loaded, each read once however often it is shown. */
  objects: RequestObjects;
  /** The pages this request has read, each identical read made once. */
  pages: RequestPages;
  /**
   * The permissions each person this request has asked about granted the viewer's app
   * (person-grants): known, or on their way from the store.
   */
  grantedScopes: Map<number, ReadonlySet<string> | Promise<ReadonlySet<string>>>;
  /**
   * Why the answer holds less than was asked (a field left out for a permission not granted),
   * one sentence each, for clients that ask to debug.
   */
  notes: Set<string>;
}

export type ReadContextInput = Omit<ReadContext, 'cursors' | 'fieldContext' | 'budget' | 'objects' | 'pages' | 'grantedScopes' | 'notes'> & { notes?: Set<string> };

export function createReadContext(input: ReadContextInput): ReadContext {
  const { viewer } = input;
  const business = businessOf(viewer.app);
  return {
    ...input,
    cursors: new CursorCodec(viewer.app.idKey, viewer.ids),
    budget: new CostBudget(input.limits, input.startedAt),
    objects: new RequestObjects(input.store),
    pages: new RequestPages(input.store),
    grantedScopes: new Map(),
    notes: input.notes ?? new Set(),
    fieldContext: {
      userIdFor: (internalId) => viewer.ids.scope(internalId),
      publicUrl: input.publicUrl,
      profileHost: input.profileHost,
      tokenForBusiness: (internalId) => tokenForBusiness(input.businessKey, business, internalId),
      now: input.now,
      viewerId: viewer.userId,
    },
  };
}
