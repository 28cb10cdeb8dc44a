import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphError } from '../errors.js';
import { presentError, presentValue, type GraphResponse } from '../dispatch/graph-response.js';
import { outputOptions } from '../dispatch/output-options.js';

/** Writes a Graph answer as it stands: status, headers and body bytes. */
export function writeGraphResponse(reply: FastifyReply, response: GraphResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}

/** A JSON answer outside the graph (the control API, the Explorer's lists), honouring the same output options. */
export async function sendJson(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown): Promise<FastifyReply> {
  const options = outputOptions(queryParams(request));
  return writeGraphResponse(reply, await presentValue(options, { method: request.method.toLowerCase(), ifNoneMatch: request.headers['if-none-match'] }, status, body, {}));
}

/** Any failure, in the Graph error envelope, with its WWW-Authenticate header. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: GraphError): FastifyReply {
  return writeGraphResponse(reply, presentError(outputOptions(queryParams(request)), error, request.id));
}

function queryParams(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries((request.query as Record<string, unknown> | undefined) ?? {})) {
    if (typeof value === 'string') params[key] = value;
  }
  return params;
}
