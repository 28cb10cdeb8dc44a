import { randomFillSync } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { parseQueryString } from '../dispatch/graph-request.js';
import { GraphError } from '../errors.js';
import type { HostCredentials } from '../intercept/intercepted-hosts.js';
import type { Schema } from '../schema/registry.js';
import { registerBodyParsers } from './body-parsers.js';
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.js';
import { DEFAULT_TIMEOUTS, refuseOversizedUploads, serverOptions, type RequestTimeouts } from './connection-limits.js';
import { controlRoutes } from './control-routes.js';
import { dialogRoutes } from './dialog-routes.js';
import { settleEarlyAnswer } from './early-answers.js';
import { explorerRoutes } from './explorer-routes.js';
import { fromFrameworkError } from './framework-errors.js';
import { graphRoutes } from './graph-routes.js';
import { interceptConnect, isIntercepted } from './intercept-proxy.js';
import { loginRoutes } from './login-routes.js';
import { mediaRoutes } from './media-routes.js';
import { sendError } from './reply.js';
import type { AppSettings } from './settings.js';
import { cutSlowBodies } from './slow-bodies.js';
import { writeAtTurnEnd } from './turn-writes.js';
import { largestFile, MAX_FILES } from './uploads.js';

/** How the HTTP server takes requests: what the Graph answers with is in its settings. */
export interface HttpOptions {
  /**
   * The Schema to serve a request by, given the store's auth version read as it arrived (which a
   * declaration applied while the app runs moves); each request keeps the one it started with.
   */
  followSchema?: (authVersion: number) => Promise<Schema>;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /**
   * Log one JSON line per request, to standard output (true) or appended to a file (the CLI
   * chooses; tests leave it off).
   */
  logger?: boolean | { file: string };
  /**
   * Host names (without port) requests may name; any when absent. A server on a loopback address
   * lists its own names, so a web page that rebinds its DNS name to 127.0.0.1 cannot reach it.
   */
  allowedHosts?: readonly string[];
  /** Opens the control API (`/_loom/`) to any address, for requests that carry this key; loopback only without it. */
  adminKey?: string;
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

/** What a route with a JSON schema would meet: Loom answers in the Graph envelope, never through Fastify's validation. */
function noRouteSchemas(): never {
  throw new Error('Loom routes declare no JSON schemas: request checks answer in the Graph error envelope');
}

/**
 * The Fastify app that serves `settings`: its routes, body parsers, limits and hooks. Background
 * work and the settings themselves are the composition root's (src/server).
 */
export async function buildHttpApp(settings: AppSettings, options: HttpOptions): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: typeof options.logger === 'object' ? { level: 'info', file: options.logger.file } : options.logger ? { level: 'info' } : false,
    // Loom writes its own single line per request (without the query string, which holds tokens).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    genReqId: traceId,
    requestIdHeader: false,
    routerOptions: { querystringParser: parseQueryString },
    // No route declares a JSON schema: Fastify's own compilers (Ajv, fast-json-stringify) are never
    // needed, and naming these keeps every server start from loading them.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
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
  // Callback style, as every hook run on each request: no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.headers.host ? undefined : GraphError.invalidParameter('The request has no Host header'));
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
  app.addHook('onRequest', async (request) => {
    const versions = await settings.control.sync();
    request.authVersion = versions.auth;
    if (options.followSchema) settings.schema = await options.followSchema(versions.auth);
  });

  if (options.intercept) interceptConnect(app.server, options.intercept);

  // Every answer names its version and trace id; Graph answers write their own type and caching (graph-response.ts).
  // It is then sent with the other answers of its turn (turn-writes.ts). Callback style: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Graph answers name the version that answered; everything else answers in the server's.
    if (!reply.hasHeader('facebook-api-version')) reply.header('facebook-api-version', settings.defaultVersion);
    reply.header('x-fb-trace-id', request.id);
    if (!request.raw.complete) settleEarlyAnswer(request, reply);
    writeAtTurnEnd(() => {
      // What sending throws goes where Fastify sends an error its hook threw, as before it waited.
      try {
        done(null, payload);
      } catch (error) {
        done(error as Error);
      }
    });
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
  await app.register(mediaRoutes, { media: settings.media.store, store: settings.store });
  await app.register(dialogRoutes, { settings });
  await app.register(loginRoutes, { settings });
  await app.register(explorerRoutes, { settings });
  await app.register(controlRoutes, { settings, adminKey: options.adminKey });
  await app.register(graphRoutes, { settings });
  return app;
}
