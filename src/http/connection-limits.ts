import type { FastifyInstance } from 'fastify';
import { uploadLimit, uploadTooLarge, type UploadLimits } from './uploads.js';

/**
 * How long a client may take to send a request: its head as a whole, its body between two bytes,
 * and its body on average. An upload at any speed a person would call working never waits that
 * long for a byte nor comes that slowly, so only stalled or deliberately slow clients are cut,
 * and none holds a connection for ever (see slow-bodies.ts).
 */
export interface RequestTimeouts {
  /** Milliseconds for the request line and headers, from the connection's first byte. */
  headerMs: number;
  /** Milliseconds without a byte while a request is under way. */
  bodyIdleMs: number;
  /**
   * Slowest average, in bytes a second from the end of its head, that a body may arrive at once
   * the grace has passed; 0 sets no minimum. A byte a second never pauses long enough for the
   * idle timeout, yet would hold a connection for a day.
   */
  minBodyRate: number;
  /** Milliseconds from a request's head before its body's rate counts. */
  bodyRateGraceMs: number;
}

/** The minimum rate and grace are those of Kestrel's MinRequestBodyDataRate: a trickle is cut within seconds, a slow phone line never. */
export const DEFAULT_TIMEOUTS: RequestTimeouts = { headerMs: 10_000, bodyIdleMs: 30_000, minBodyRate: 240, bodyRateGraceMs: 5000 };

/** The Fastify options that make Node enforce the timeouts, and leave a missing Host to Loom. */
export function serverOptions(timeouts: RequestTimeouts, maxHeaderSize: number) {
  return {
    // The socket's inactivity timeout: Loom answers it (see cutSlowBodies).
    connectionTimeout: timeouts.bodyIdleMs,
    http: {
      maxHeaderSize,
      headersTimeout: timeouts.headerMs,
      // Node checks the header deadline on this period; its default (30 s) would triple a 10 s limit.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headerMs / 4))),
      requireHostHeader: false,
    },
  };
}

/**
 * Refuses a multipart body whose declared length already passes the limit, before a byte of it
 * is read: its files (at most MAX_FILES images, or one video) and a margin for the other fields.
 * Bodies sent without a length are counted as they are read (readMultipart). Other
 * bodies have Fastify's own body limit, which checks the declared length the same way.
 */
export function refuseOversizedUploads(app: FastifyInstance, limits: UploadLimits): void {
  const maxBytes = uploadLimit(limits);
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = request.headers['content-type']?.toLowerCase().startsWith('multipart/') ? Number(request.headers['content-length']) : NaN;
    done(Number.isFinite(declared) && declared > maxBytes ? uploadTooLarge(maxBytes) : undefined);
  });
}

