import type { Clock } from '../clock/clock.js';
import type { ControlPlane } from '../control/control-plane.js';
import type { RateLimits } from '../control/rate-limits.js';
import type { PageLimits } from '../engine/read/edge-options.js';
import type { FetchLimits } from '../media/fetch-image.js';
import type { MediaStore } from '../media/media-store.js';
import type { Schema } from '../schema/registry.js';
import type { ApiVersion } from '../schema/versions.js';
import type { Store } from '../store/store.js';
import type { SpecialPaths } from './special-paths.js';

/** What answering a Graph request reads, resolved once when the server is built (defaults applied). */
export interface DispatchSettings {
  store: Store;
  /**
   * The store as a request that only reads (a GET) uses it: the same, but for the graph's reads,
   * which go to the store's read replicas where it has them (store/reading-store.ts).
   */
  readStore: Store;
  /** The schema in force: one applied while the server runs takes its place between requests. */
  schema: Schema;
  publicUrl: string | undefined;
  profileHost: string;
  limits: PageLimits;
  clock: Clock;
  /** Where uploads go and how large they may be: `maxBytes` for images, `maxVideoBytes` for videos. */
  media: { store: MediaStore; maxVideoBytes: number } & FetchLimits;
  /** Key of every `token_for_business`, read once at start. */
  businessKey: string;
  tokenLifetime: number;
  /** The API version of unversioned calls without a token, or whose app names none. */
  defaultVersion: ApiVersion;
  /** The test control plane: shared clock state, faults, the journal, snapshots. */
  control: ControlPlane;
  /** Per-app and per-user call budgets, when the server counts them. */
  rateLimits: RateLimits | undefined;
  /** The paths a room other than the engine answers (the token endpoint, search, …). */
  paths: SpecialPaths;
}
