import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { businessTokenKey } from '../auth/business-tokens.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../auth/sign-in-throttle.js';
import { GraphError } from '../errors.js';
import type { PageLimits } from '../engine/edge-options.js';
import { Schema } from '../schema/registry.js';
import { DEFAULT_API_VERSION, type ApiVersion } from '../schema/versions.js';
import type { Store } from '../store/store.js';
import type { FetchLimits } from '../media/fetch-image.js';
import { MediaStore } from '../media/media-store.js';
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.js';
import { authenticateHeader, errorBody, fromFrameworkError } from './error-envelope.js';
import { explorerRoutes } from './explorer-routes.js';
import { graphRoutes } from './graph-routes.js';
import { mediaRoutes } from './media-routes.js';
import { debugTokenRoute } from './debug-token-route.js';
import { dialogRoutes } from './dialog-routes.js';
import { oauthRoutes } from './oauth-routes.js';

export interface AppOptions {
  store: Store;
  schema?: Schema;
  /** Base of every absolute link Loom writes; the request's own host when absent. */
  publicUrl?: string;
  /** Host of profile links (`link` fields). */
  profileHost?: string;
  limits?: Partial<PageLimits>;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /** Log one line per request (the CLI turns this on; tests leave it off). */
  logger?: boolean;
  /** Unix seconds; tests move time to expire tokens. */
  clock?: () => number;
  /** Directory that keeps uploaded images. */
  mediaDir: string;
  /** Largest accepted image upload, in bytes. */
  maxImageBytes?: number;
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
}

export interface AppSettings {
  store: Store;
  schema: Schema;
  publicUrl: string | undefined;
  profileHost: string;
  limits: PageLimits;
  clock: () => number;
  media: { store: MediaStore } & FetchLimits;
  /** Key of every `token_for_business`, read once at start. */
  businessKey: string;
  tokenLifetime: number;
  signInLimits: SignInLimits;
  defaultVersion: ApiVersion;
}

export const JSON_TYPE = 'application/json; charset=UTF-8';
/** The real service's limit for photo uploads. */
const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The Loom HTTP app: the same instance serves the CLI and the tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const settings: AppSettings = {
    store: options.store,
    schema: options.schema ?? Schema.default(),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    profileHost: (options.profileHost ?? 'https://www.facebook.com').replace(/\/+$/, ''),
    limits: { defaultLimit: 25, maxLimit: 100, maxItems: 50_000, ...options.limits },
    clock: options.clock ?? (() => Math.floor(Date.now() / 1000)),
    media: {
      store: new MediaStore(options.mediaDir),
      maxBytes: options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES,
      allowPrivateUrls: options.allowPrivatePhotoUrls ?? false,
    },
    businessKey: await businessTokenKey(options.store),
    tokenLifetime: options.tokenLifetime ?? SHORT_LIVED_SECONDS,
    signInLimits: { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits },
    defaultVersion: options.defaultVersion ?? DEFAULT_API_VERSION,
  };
  if (!Number.isSafeInteger(settings.tokenLifetime) || settings.tokenLifetime <= 0) {
    throw new RangeError(`tokenLifetime must be a positive number of seconds, not ${options.tokenLifetime}`);
  }
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    // Loom writes its own single line per request (without the query string, which holds tokens).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    genReqId: () => randomBytes(8).toString('base64url').slice(0, 11),
    requestIdHeader: false,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
  });

  // Form bodies are as common as query strings among Graph clients; parse them into plain strings.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  if (options.allowedHosts) {
    const allowed = new Set(options.allowedHosts.map((name) => name.toLowerCase()));
    app.addHook('onRequest', async (request) => {
      if (!allowed.has(request.hostname.toLowerCase())) {
        throw new GraphError(100, `(#100) This server does not answer for the host ${request.hostname.slice(0, 100)}`, { status: 421 });
      }
    });
  }

  app.addHook('onSend', async (request, reply, payload) => {
    // Graph routes name the version that answered; everything else answers in the server's.
    if (!reply.hasHeader('facebook-api-version')) reply.header('facebook-api-version', settings.defaultVersion);
    reply.header('x-fb-trace-id', request.id);
    // Images and pages set their own type and caching; every Graph answer is exactly this JSON type, never cached.
    const type = reply.getHeader('content-type');
    if (type !== undefined && !String(type).startsWith('application/json')) return payload;
    reply.header('content-type', JSON_TYPE);
    // Any page may call the API, as the real service allows; HTML pages (the dialog) are not shared.
    reply.header('access-control-allow-origin', '*');
    reply.header('cache-control', 'private, no-cache, no-store, must-revalidate');
    reply.header('pragma', 'no-cache');
    reply.header('expires', 'Sat, 01 Jan 2000 00:00:00 GMT');
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    // The path only: query strings carry access tokens, which never reach a log.
    const path = (request.raw.url ?? '/').split('?')[0];
    request.log.info({ method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

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
    // 50 fields of at most 256 KiB (a message of 63,206 characters fits) and one image.
    limits: { fileSize: settings.media.maxBytes, files: 1, fields: 50, parts: 51, fieldNameSize: 100, fieldSize: Math.min(bodyLimit, 256 * 1024) },
  });
  await app.register(mediaRoutes, { media: settings.media.store });
  await app.register(oauthRoutes, { settings });
  await app.register(dialogRoutes, { settings });
  await app.register(debugTokenRoute, { settings });
  await app.register(explorerRoutes, { settings });
  await app.register(graphRoutes, { settings });
  return app;
}

export function sendJson(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const params = request.query as Record<string, unknown> | undefined;
  const pretty = params?.pretty === '1' || params?.pretty === 'true';
  return reply.code(status).type(JSON_TYPE).send(pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: GraphError): FastifyReply {
  const header = authenticateHeader(error);
  if (header) reply.header('www-authenticate', header);
  const suppressed = (request.query as Record<string, unknown> | undefined)?.suppress_http_code === '1';
  return sendJson(request, reply, suppressed ? 200 : error.status, errorBody(error, request.id));
}
