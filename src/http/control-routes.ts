import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseDuration, parseTime } from '../control/durations.js';
import { MAX_JOURNAL_SIZE, type JournalFilter } from '../control/journal.js';
import { graphTime } from '../clock/graph-time.js';
import { GraphError } from '../errors.js';
import { sendJson } from './reply.js';
import { webhookControlRoutes } from './webhook-control-routes.js';
import type { AppSettings } from './settings.js';

/**
 * The test control plane under `/_loom/`: reset, snapshots, the clock, faults and the request
 * journal. Without an admin key only the machine itself may call it; with one, every call must
 * carry it as `Authorization: Bearer <key>`. A Graph access token is never a key.
 */
export async function controlRoutes(app: FastifyInstance, { settings, adminKey }: { settings: AppSettings; adminKey: string | undefined }): Promise<void> {
  const control = settings.control;

  app.addHook('onRequest', async (request) => {
    if (adminKey !== undefined ? !sameKey(request.headers.authorization, adminKey) : !isLoopback(request.socket.remoteAddress)) {
      throw new GraphError(
        10,
        adminKey !== undefined
          ? '(#10) The control API needs the admin key: Authorization: Bearer <key>'
          : '(#10) The control API answers only requests from this machine (start Loom with --admin-key to open it to others)',
        { status: 403, authenticate: null },
      );
    }
    // A web page may send a simple cross-site POST to a loopback server; one with a JSON body
    // needs a preflight this API never grants, so only such POSTs are taken.
    if (request.method === 'POST' && !String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      throw GraphError.invalidParameter('The control API takes POST bodies as application/json');
    }
  });
  // Answers are for the machine's own tools and pages, never for other sites' scripts.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.removeHeader('access-control-allow-origin');
    return payload;
  });

  const ok = { success: true };
  app.post('/_loom/reset', async (request, reply) => {
    await control.reset();
    return sendJson(request, reply, 200, ok);
  });

  app.get('/_loom/snapshots', async (request, reply) => sendJson(request, reply, 200, { data: (await control.listSnapshots()).map(describeSnapshot) }));
  app.post('/_loom/snapshots', async (request, reply) => {
    const snapshot = await control.saveSnapshot(bodyOf(request).name);
    return sendJson(request, reply, 200, describeSnapshot(snapshot));
  });
  app.post<{ Params: { name: string } }>('/_loom/snapshots/:name/restore', async (request, reply) => {
    await control.restoreSnapshot(request.params.name);
    return sendJson(request, reply, 200, ok);
  });
  app.delete<{ Params: { name: string } }>('/_loom/snapshots/:name', async (request, reply) => {
    await control.deleteSnapshot(request.params.name);
    return sendJson(request, reply, 200, ok);
  });

  // A running clock says how far it runs from real time, so a page can tell a moved clock from the real one.
  const clockAnswer = () => {
    const setting = control.clock.current;
    const now = control.clock.now();
    return { now: graphTime(now), unix: now, frozen: 'frozenAt' in setting, ...('offset' in setting ? { offset: setting.offset } : {}) };
  };
  app.get('/_loom/clock', async (request, reply) => sendJson(request, reply, 200, clockAnswer()));
  app.post('/_loom/clock', async (request, reply) => {
    const body = bodyOf(request);
    if ((body.now === undefined) === (body.advance === undefined)) throw GraphError.invalidParameter('Send either now or advance');
    if (body.now !== undefined) await control.freezeClock(parseTime(body.now));
    else await control.advanceClock(parseDuration(body.advance));
    return sendJson(request, reply, 200, clockAnswer());
  });
  app.delete('/_loom/clock', async (request, reply) => {
    await control.realClock();
    return sendJson(request, reply, 200, clockAnswer());
  });

  app.get('/_loom/faults', async (request, reply) => sendJson(request, reply, 200, { data: control.listFaults() }));
  app.post('/_loom/faults', async (request, reply) => sendJson(request, reply, 200, { id: (await control.addFault(request.body)).id }));
  app.delete('/_loom/faults', async (request, reply) => {
    await control.deleteFaults();
    return sendJson(request, reply, 200, ok);
  });
  app.delete<{ Params: { id: string } }>('/_loom/faults/:id', async (request, reply) => {
    if (!(await control.deleteFaults(request.params.id))) throw new GraphError(100, '(#100) No fault has that id', { status: 404 });
    return sendJson(request, reply, 200, ok);
  });

  app.get('/_loom/requests', async (request, reply) => {
    const data = control.journal.list(journalFilter(request.query as Record<string, string | undefined>));
    return sendJson(request, reply, 200, { data: data.map((entry) => ({ ...entry, time: graphTime(entry.time) })) });
  });
  app.delete('/_loom/requests', async (request, reply) => {
    control.journal.clear();
    return sendJson(request, reply, 200, ok);
  });

  webhookControlRoutes(app, settings);
}

function describeSnapshot(snapshot: { name: string; createdTime: number }): Record<string, string> {
  return { name: snapshot.name, created_time: graphTime(snapshot.createdTime) };
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function journalFilter(query: Record<string, string | undefined>): JournalFilter {
  const filter: JournalFilter = {};
  const whole = (name: string, value: string | undefined, max: number): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d{1,15}$/.test(value) || Number(value) > max) throw GraphError.invalidParameter(`${name} must be a whole number up to ${max}`);
    return Number(value);
  };
  const limit = whole('limit', query.limit, MAX_JOURNAL_SIZE);
  const since = whole('since', query.since, Number.MAX_SAFE_INTEGER);
  const status = whole('status', query.status, 599);
  if (limit !== undefined) filter.limit = limit;
  if (since !== undefined) filter.since = since;
  if (status !== undefined) filter.status = status;
  if (query.app_id !== undefined) filter.app_id = query.app_id;
  return filter;
}

function sameKey(header: string | undefined, key: string): boolean {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(key);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
