/**
 * The baseline of every ratio: a bare Fastify route answering a constant object, the least any
 * Fastify-based server can do per request. Listens on the port given as the first argument.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
