import type { FastifyInstance } from 'fastify';
import { businessTokenKey } from '../auth/business-tokens.js';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../auth/sign-in-throttle.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { Clock } from '../clock/clock.js';
import { ControlPlane } from '../control/control-plane.js';
import { RateLimits } from '../control/rate-limits.js';
import { SpecialPaths } from '../dispatch/special-paths.js';
import type { PageLimits } from '../engine/read/edge-options.js';
import { buildHttpApp, type HttpOptions } from '../http/app.js';
import type { AppSettings } from '../http/settings.js';
import { claimMediaFolder } from '../media/media-owner.js';
import { MediaStore } from '../media/media-store.js';
import type { SweepResult } from '../media/media-sweep.js';
import { MediaSweeper, type MediaSweepSettings } from '../media/media-sweeper.js';
import type { Schema } from '../schema/registry.js';
import { graphSchema } from '../graph/graph-schema.js';
import { DEFAULT_API_VERSION, type ApiVersion } from '../schema/versions.js';
import { databaseIdOf } from '../store/database-id.js';
import { readingStore } from '../store/reading-store.js';
import type { OnSearchReindex } from '../store/search.js';
import type { Store } from '../store/store.js';
import { withOutbox } from '../webhooks/outbox.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../webhooks/settings.js';
import { DeliveryWorker } from '../webhooks/worker.js';
import { specialPaths } from './special-paths.js';

export interface AppOptions extends HttpOptions {
  store: Store;
  schema?: Schema;
  /** Base of every absolute link Loom writes; the request's own host when absent. */
  publicUrl?: string;
  /** Host of profile links (`link` fields). */
  profileHost?: string;
  limits?: Partial<PageLimits>;
  /** The server's one clock (default: real time); tests freeze or move it to expire tokens. */
  clock?: Clock;
  /** Directory that keeps uploaded images; it must be this database's or unclaimed (see media-owner.ts). */
  mediaDir: string;
  /** Where the database lives, as the media folder's owner file and its errors name it. */
  database?: string;
  /**
   * Sweep the media folder as the server starts and then every period (what a crash left behind);
   * never when absent. `report` hears of each sweep that changed something, and of failures.
   */
  mediaSweep?: MediaSweepSettings & { report?: (outcome: SweepResult | Error) => void };
  /** Largest accepted image upload, in bytes. */
  maxImageBytes?: number;
  /** Largest accepted video upload, in bytes. */
  maxVideoBytes?: number;
  /** Let photo uploads by `url` fetch from loopback and private networks (off: they are refused). */
  allowPrivatePhotoUrls?: boolean;
  /** Lifetime in seconds of the user tokens the sign-in dialog hands out (default two hours). */
  tokenLifetime?: number;
  /** Failed sign-ins allowed per email and per client address (defaults: 10 and 50 in 15 minutes). */
  signInLimits?: Partial<SignInLimits>;
  /** The API version of unversioned calls without a token, or whose app names none (default v2.4). */
  defaultVersion?: ApiVersion;
  /** Count calls against per-app and per-user budgets over a rolling hour, as the real service does (off by default). */
  rateLimits?: boolean;
  /** Requests the journal keeps (default 1000). */
  journalSize?: number;
  /**
   * Take the graph as it is now as the state `POST /_loom/reset` goes back to. The process that
   * starts a server does it once, before any process serves.
   */
  recordStart?: boolean;
  /**
   * Webhook settings (see DEFAULT_WEBHOOK_SETTINGS); with `deliver`, this process also runs a
   * delivery worker, stopped when the app closes.
   */
  webhooks?: Partial<WebhookSettings> & { deliver?: boolean };
  /** Told, before it starts, that the store indexes stored objects for search again (a changed declaration). */
  onSearchReindex?: OnSearchReindex;
}

/** The real service's limit for photo uploads. */
const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Loom's default limit for video uploads. The real service takes far larger files through its
 * resumable upload; Loom reads an upload whole into memory, so it keeps the default modest.
 */
const DEFAULT_MAX_VIDEO_BYTES = 100 * 1024 * 1024;

/**
 * A Loom server, put together from its rooms: the store (with the webhook outbox), the schema in
 * force, the settings every request reads, the HTTP app over them, and the work it does in the
 * background (webhook delivery, media sweeps). The same server serves the CLI and the tests.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? Clock.real();
  // Every write of a request puts its changes in the webhook outbox, in the same transaction.
  const store = withOutbox(options.store, clock);
  const mediaFiles = new MediaStore(options.mediaDir);
  // Before anything reads or writes there: a folder of another database is refused, never used.
  const mediaOwner = await claimMediaFolder(options.mediaDir, { id: await databaseIdOf(store), name: options.database ?? 'an unnamed database' });
  let ownPort: number | undefined;
  const webhooks = { ...DEFAULT_WEBHOOK_SETTINGS, ...options.webhooks, ownPort: () => ownPort };
  const resolved: Omit<AppSettings, 'paths'> = {
    store,
    readStore: readingStore(store),
    schema: options.schema ?? graphSchema(),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    profileHost: (options.profileHost ?? 'https://www.facebook.com').replace(/\/+$/, ''),
    limits: { defaultLimit: 25, maxLimit: 100, maxItems: 50_000, maxBytes: 8 * 1024 * 1024, maxWorkMs: 5000, ...options.limits },
    clock,
    media: {
      store: mediaFiles,
      maxBytes: options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES,
      maxVideoBytes: options.maxVideoBytes ?? DEFAULT_MAX_VIDEO_BYTES,
      allowPrivateUrls: options.allowPrivatePhotoUrls ?? false,
    },
    businessKey: await businessTokenKey(store),
    tokenLifetime: options.tokenLifetime ?? SHORT_LIVED_SECONDS,
    signInLimits: { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits },
    defaultVersion: options.defaultVersion ?? DEFAULT_API_VERSION,
    control: new ControlPlane(store, clock, mediaFiles, options.journalSize),
    rateLimits: options.rateLimits ? new RateLimits(store, clock) : undefined,
  };
  // One object, not a copy: the table's functions read the schema in force through it.
  const settings: AppSettings = Object.assign(resolved, { paths: new SpecialPaths(specialPaths(resolved, webhooks)) });
  if (!Number.isSafeInteger(settings.tokenLifetime) || settings.tokenLifetime <= 0) {
    throw new RangeError(`tokenLifetime must be a positive number of seconds, not ${options.tokenLifetime}`);
  }
  // The store indexes what the schema declares searchable; a type whose declaration changed
  // (or a database made before the index) is indexed from its stored objects here, once.
  await store.declareSearchable(settings.schema.searchable(), options.onSearchReindex);
  const app = await buildHttpApp(settings, options);
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address === 'object' && address) ownPort = address.port;
  });
  if (options.webhooks?.deliver) {
    const worker = new DeliveryWorker(store, clock, webhooks, async () => void (await settings.control.sync()), (error) =>
      app.log.error({ err: error }, 'webhook delivery round failed'),
    );
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }
  if (options.mediaSweep) {
    const { report = (outcome: SweepResult | Error) => app.log.info({ mediaSweep: outcome }, 'media sweep'), ...every } = options.mediaSweep;
    const sweeper = new MediaSweeper(store, mediaFiles, mediaOwner, every, report);
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', async () => sweeper.stop());
  }
  // Last: registering the routes may itself have stored keys the start state must hold.
  if (options.recordStart) await settings.control.markStart();
  return app;
}
