import { businessOf, tokenForBusiness } from '../../auth/business-tokens.js';
import type { Viewer } from '../../auth/viewer.js';
import type { FetchLimits } from '../../media/fetch-image.js';
import type { MediaStore } from '../../media/media-store.js';
import type { Schema } from '../../schema/registry.js';
import type { FieldContext } from '../../schema/definition.js';
import type { ApiVersion } from '../../schema/versions.js';
import type { Store } from '../../store/store.js';
import { CursorCodec } from './cursors.js';
import type { PageLimits } from '../read/edge-options.js';
import { CostBudget } from './cost-budget.js';
import { RequestObjects } from './request-objects.js';
import { RequestPages } from './request-pages.js';
import { formEncoded } from './form-encoding.js';

/** Everything one read needs; built per request by the caller (the HTTP layer, or a test). */
export interface ReadContext {
  store: Store;
  schema: Schema;
  readonly viewer: Viewer;
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
  /** An absolute link to a Graph path (`/123/likes`) with these query parameters, in the request's version. */
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
  /**
   * The same request read by another viewer (a writer reading back what they wrote, with the
   * permission the write proves): what it has spent and noted so far counts for both.
   */
  withViewer(viewer: Viewer): ReadContext;
}

// The behaviours a schema names (schema/behaviours.ts) are handed this same context.
declare module '../../schema/behaviours.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the declaration merged into schema/'s is the whole point
  interface BehaviourContext extends ReadContext {}
}

export type ReadContextInput = Omit<
  ReadContext,
  'cursors' | 'fieldContext' | 'budget' | 'objects' | 'pages' | 'grantedScopes' | 'notes' | 'link' | 'withViewer'
> & { notes?: Set<string> };

export function createReadContext(input: ReadContextInput): ReadContext {
  return new RequestContext(input);
}

/**
 * A read context whose parts are made when first used: most reads (a node's own fields) page
 * nothing, sign no cursor and compute no field, and pay for none of them. Properties are set
 * one by one in a fixed order, so every context has the same shape.
 */
class RequestContext implements ReadContext {
  readonly store: Store;
  readonly schema: Schema;
  readonly viewer: Viewer;
  readonly version: ApiVersion;
  readonly now: number;
  readonly authVersion: number | undefined;
  readonly startedAt: number | undefined;
  readonly publicUrl: string;
  readonly profileHost: string;
  readonly limits: PageLimits;
  readonly tokenLifetime: number;
  readonly media: ReadContext['media'];
  readonly linkParams: Record<string, string>;
  readonly businessKey: string;
  readonly budget: CostBudget;
  readonly grantedScopes: Map<number, ReadonlySet<string> | Promise<ReadonlySet<string>>>;
  readonly notes: Set<string>;
  private madeCursors: CursorCodec | undefined;
  private madeFieldContext: FieldContext | undefined;
  private madeObjects: RequestObjects | undefined;
  private madePages: RequestPages | undefined;

  constructor(input: ReadContextInput) {
    this.store = input.store;
    this.schema = input.schema;
    this.viewer = input.viewer;
    this.version = input.version;
    this.now = input.now;
    this.authVersion = input.authVersion;
    this.startedAt = input.startedAt;
    this.publicUrl = input.publicUrl;
    this.profileHost = input.profileHost;
    this.limits = input.limits;
    this.tokenLifetime = input.tokenLifetime;
    this.media = input.media;
    this.linkParams = input.linkParams;
    this.businessKey = input.businessKey;
    this.budget = new CostBudget(input.limits, input.startedAt);
    this.grantedScopes = new Map();
    this.notes = input.notes ?? new Set();
    this.madeCursors = undefined;
    this.madeFieldContext = undefined;
    this.madeObjects = undefined;
    this.madePages = undefined;
  }

  get cursors(): CursorCodec {
    return (this.madeCursors ??= new CursorCodec(this.viewer.app.idKey, this.viewer.ids));
  }

  get objects(): RequestObjects {
    return (this.madeObjects ??= new RequestObjects(this.store));
  }

  get pages(): RequestPages {
    return (this.madePages ??= new RequestPages(this.store));
  }

  get fieldContext(): FieldContext {
    if (this.madeFieldContext === undefined) {
      const { viewer, businessKey } = this;
      const business = businessOf(viewer.app);
      this.madeFieldContext = {
        userIdFor: (internalId) => viewer.ids.scope(internalId),
        publicUrl: this.publicUrl,
        profileHost: this.profileHost,
        tokenForBusiness: (internalId) => tokenForBusiness(businessKey, business, internalId),
        now: this.now,
        viewerId: viewer.userId,
        version: this.version,
      };
    }
    return this.madeFieldContext;
  }

  link(path: string, params: Record<string, string>): string {
    const query = formEncoded(params);
    return `${this.publicUrl}/${this.version}${path}${query ? `?${query}` : ''}`;
  }

  withViewer(viewer: Viewer): ReadContext {
    return Object.assign(Object.create(RequestContext.prototype) as RequestContext, this, { viewer });
  }
}
