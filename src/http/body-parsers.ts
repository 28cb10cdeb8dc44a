import type { FastifyInstance } from 'fastify';
import { GraphError } from '../errors.js';

/**
 * Form bodies are as common as query strings among Graph clients, and some send them with no
 * Content-Type at all (or as text/plain): the real service read those as forms too, so Loom
 * does. JSON is read only when the Content-Type says so; multipart has its own parser.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const asForm = (_request: unknown, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  };
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, asForm);
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, asForm);
  // Fastify hands bodies of any unregistered type, and bodies without a type, to the catch-all.
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (request.headers['content-type'] === undefined) return asForm(request, body, done);
    done(GraphError.invalidParameter('The request body has a content type Loom does not read'));
  });
}
