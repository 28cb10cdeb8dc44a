import { randomFillSync } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { businessTokenKey } from '../auth/business-tokens.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../auth/sign-in-throttle.js';
import { Clock } from '../control/clock.js';
import { ControlPlane } from '../control/control-plane.js';
import { RateLimits } from '../control/rate-limits.js';
import { GraphError } from '../errors.js';
import type { PageLimits } from '../engine/edge-options.js';
import { DEFAULT_API_VERSION, type ApiVersion } from '../schema/versions.js';
import { Schema } from '../schema/registry.js';
import type { Store } from '../store/store.js';
import { withOutbox } from '../webhooks/outbox.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../webhooks/settings.js';
import { DeliveryWorker } from '../webhooks/worker.js';
import { MediaStore } from '../media/media-store.js';
import { claimMediaFolder } from '../media/media-owner.js';
import type { SweepResult } from '../media/media-sweep.js';
import { MediaSweeper, type MediaSweepSettings } from '../media/media-sweeper.js';
import { databaseIdOf } from '../store/database-id.js';
import { AnswerCache } from '../dispatch/answer-cache.js';
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.js';
import { registerBodyParsers } from './body-parsers.js';
import { DEFAULT_TIMEOUTS, refuseOversizedUploads, serverOptions, type RequestTimeouts } from './connection-limits.js';
import { settleEarlyAnswer } from './early-answers.js';
import { cutSlowBodies } from './slow-bodies.js';
import { fromFrameworkError } from './framework-errors.js';
import { explorerRoutes } from './explorer-routes.js';
import { controlRoutes } from './control-routes.js';
import { graphRoutes } from './graph-routes.js';
import { parseQueryString } from '../dispatch/graph-request.js';
import { mediaRoutes } from './media-routes.js';
import { loginRoutes } from './login-routes.js';
import { dialogRoutes } from './dialog-routes.js';
import { interceptConnect, isIntercepted } from './intercept-proxy.js';
import type { HostCredentials } from '../intercept/certificate-authority.js';
import { sendError } from './reply.js';
import type { AppSettings } from './settings.js';
import { largestFile, MAX_FILES } from './uploads.js';

export interface AppOptions {
  store: Store;
  schema?: Schema;
  /**
   * The Schema to serve a request by, given the store's auth version read as it arrived (which a
   * declaration applied while the app runs moves); each request keeps the one it started with.
   */
  followSchema?: (authVersion: number) => Promise<Schema>;
  /** Base of every absolute link Loom writes; the request's own host when absent. */
  publicUrl?: string;
  /** Host of profile links (`link` fields). */
  profileHost?: string;
  limits?: Partial<PageLimits>;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /**
   * Log one JSON line per request, to standard output (true) or appended to a file (the CLI
   * chooses; tests leave it off).
   */
  logger?: boolean | { file: string };
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
  /**
   * Host names (without port) requests may name; any when absent. A server on a loopback address
   * lists its own names, so a web page that rebinds its DNS name to 127.0.0.1 cannot reach it.
   */
  allowedHosts?: readonly string[];
  /** Let photo uploads by `url` fetch from loopback and private networks (off: they are refused). */
  allowPrivatePhotoUrls?: boolean;
  /** Lifetime in seconds of the user tokens the sign-in dialog hands out (default two hours). */
  tokenLifetime?: number;
  /** Failed sign-ins allowed per email and per client address (defaults: 10 and 50 in 15 minutes). */
  signInLimits?: Partial<SignInLimits>;
  /** The API version of unversioned calls without a token, or whose app names none (default v2.4). */
  defaultVersion?: ApiVersion;
  /** Opens the control API (`/_loom/`) to any address, for requests that carry this key; loopback only without it. */
  adminKey?: string;
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
  /**
   * How long a request's head, and each pause in its body, may take, and how slowly its body may
   * come on average after a grace (defaults: 10 s, 30 s, 240 bytes a second after 5 s).
   */
  timeouts?: Partial<RequestTimeouts>;
  /**
   * Also act as an HTTPS proxy that answers CONNECTs to the Graph API's own hosts with these
   * credentials (for clients that cannot change their host); off when absent.
   */
  intercept?: HostCredentials;
}

/** Random bytes for trace ids, drawn in blocks: one call into the system per 512 requests, not one each. */
const traceBytes = Buffer.alloc(8 * 512);
let traceOffset = traceBytes.length;

/** 11 characters of base64url from 8 random bytes, like the real service's trace ids. */
function traceId(): string {
  if (traceOffset === traceBytes.length) {
    randomFillSync(traceBytes);
    traceOffset = 0;
  }
  traceOffset += 8;
  return traceBytes.toString('base64url', traceOffset - 8, traceOffset);
}

/** The real service's limit for photo uploads. */
const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Loom's default limit for video uploads. The real service takes far larger files through its
 * resumable upload; Loom reads an upload whole into memory, so it keeps the default modest.
 */
const DEFAULT_MAX_VIDEO_BYTES = 100 * 1024 * 1024;

/** The Loom HTTP app: the same instance serves the CLI and the tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const clock = options.clock ?? Clock.real();
  // Every write of a request puts its changes in the webhook outbox, in the same transaction.
  const store = withOutbox(options.store, clock);
  const mediaFiles = new MediaStore(options.mediaDir);
  // Before anything reads or writes there: a folder of another database is refused, never used.
  const mediaOwner = await claimMediaFolder(options.mediaDir, { id: await databaseIdOf(store), name: options.database ?? 'an unnamed database' });
  let ownPort: number | undefined;
  const settings: AppSettings = {
    store,
    schema: options.schema ?? Schema.default(),
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
    control: new ControlPlane(store, clock, options.journalSize),
    rateLimits: options.rateLimits ? new RateLimits(store, clock) : undefined,
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, ...options.webhooks, ownPort: () => ownPort },
    answers: new AnswerCache(),
  };
  if (!Number.isSafeInteger(settings.tokenLifetime) || settings.tokenLifetime <= 0) {
    throw new RangeError(`tokenLifetime must be a positive number of seconds, not ${options.tokenLifetime}`);
  }
  // The store indexes what the schema declares searchable; a type whose declaration changed
  // (or a database made before the index) is indexed from its stored objects here, once.
  await store.declareSearchable(settings.schema.searchable());
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: typeof options.logger === 'object' ? { level: 'info', file: options.logger.file } : options.logger ? { level: 'info' } : false,
    // Loom writes its own single line per request (without the query string, which holds tokens).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    genReqId: traceId,
    requestIdHeader: false,
    routerOptions: { querystringParser: parseQueryString },
    ...serverOptions(timeouts, MAX_HEADER_BYTES),
    clientErrorHandler: (error, socket) => answerClientError(error, socket, settings.defaultVersion),
    // A path that does not decode (`/v2.4/%ZZ`) is answered like any other bad request, without echoing it.
    frameworkErrors: (_error, request, reply) => {
      // Such a request skips the hooks: it is logged, and its headers set, here.
      request.log.info({ method: request.method, status: 400 }, 'request');
      reply.header('x-fb-trace-id', request.id);
      reply.header('facebook-api-version', settings.defaultVersion);
      if (!request.raw.complete) settleEarlyAnswer(request, reply);
      sendError(request, reply, GraphError.invalidParameter('The request path could not be read'));
    },
  });

  // Node leaves a request without Host to Loom (requireHostHeader is off), so it gets the envelope too.
  app.addHook('onRequest', async (request) => {
    if (!request.headers.host) throw GraphError.invalidParameter('The request has no Host header');
  });
  cutSlowBodies(app, timeouts, (request, reply, error) => void sendError(request, reply, error));
  refuseOversizedUploads(app, settings.media);

  registerBodyParsers(app);

  if (options.allowedHosts) {
    const allowed = new Set(options.allowedHosts.map((name) => name.toLowerCase()));
    app.addHook('onRequest', async (request) => {
      // An intercepted request names a Graph host by design, and reached Loom through its own CONNECT.
      if (isIntercepted(request)) return;
      if (!allowed.has(request.hostname.toLowerCase())) {
        throw new GraphError(100, `(#100) This server does not answer for the host ${request.hostname.slice(0, 100)}`, { status: 421 });
      }
    });
  }

  // Another process may have moved the clock, set faults or restored the graph. The auth version
  // read for that also checks the request's token: one read of it per request.
  app.decorateRequest('authVersion', undefined);
  app.decorateRequest('dataStamp', undefined);
  app.addHook('onRequest', async (request) => {
    const versions = await settings.control.sync();
    request.authVersion = versions.auth;
    request.dataStamp = versions.data;
    if (options.followSchema) settings.schema = await options.followSchema(versions.auth);
  });

  if (options.intercept) interceptConnect(app.server, options.intercept);

  // Every answer names its version and trace id; Graph answers write their own type and caching (graph-response.ts).
  // Callback style: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Graph answers name the version that answered; everything else answers in the server's.
    if (!reply.hasHeader('facebook-api-version')) reply.header('facebook-api-version', settings.defaultVersion);
    reply.header('x-fb-trace-id', request.id);
    if (!request.raw.complete) settleEarlyAnswer(request, reply);
    done(null, payload);
  });

  if (options.logger) {
    app.addHook('onResponse', (request, reply, done) => {
      // The path only: query strings carry access tokens, which never reach a log.
      const path = (request.raw.url ?? '/').split('?')[0];
      request.log.info({ method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
      done();
    });
  }

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    const graphError = error instanceof GraphError ? error : fromFrameworkError(error, bodyLimit);
    if (graphError.status >= 500) request.log.error({ err: error, traceId: request.id }, 'request failed');
    return sendError(request, reply, graphError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new GraphError(100, `Unsupported ${request.method.toLowerCase()} request.`, { type: 'GraphMethodException' })),
  );

  await app.register(multipart, {
    throwFileSizeLimit: true,
    // Parts are read before the token is known (it may be one of them), so their total stays small:
    // 50 fields of at most 256 KiB (a message of 63,206 characters fits) and a few images (a batch's).
    limits: { fileSize: largestFile(settings.media), files: MAX_FILES, fields: 50, parts: 50 + MAX_FILES, fieldNameSize: 100, fieldSize: Math.min(bodyLimit, 256 * 1024) },
  });
  await app.register(mediaRoutes, { media: mediaFiles, store });
  await app.register(dialogRoutes, { settings });
  await app.register(loginRoutes, { settings });
  await app.register(explorerRoutes, { settings });
  await app.register(controlRoutes, { settings, adminKey: options.adminKey });
  await app.register(graphRoutes, { settings });
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address === 'object' && address) ownPort = address.port;
  });
  if (options.webhooks?.deliver) {
    const worker = new DeliveryWorker(store, clock, settings.webhooks, async () => void (await settings.control.sync()), (error) =>
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
