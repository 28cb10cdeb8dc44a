/**
 * The Explorer: a page for getting tokens and running queries, served by Loom itself. Its HTML
 * and CSS are hand-written (`web/explorer/`), its scripts are compiled by the project's build
 * (`dist/explorer/`); nothing is fetched from anywhere else, so it works offline.
 */
import { OWN_CALLBACK_PATH } from '../auth/redirect-uris.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describePermissions } from '../schema/permission-guide.js';
import { sendJson } from './reply.js';
import type { AppSettings } from './settings.js';

/** The project root, seen from this module compiled to `dist/src/http/`. */
const ROOT = new URL('../../../', import.meta.url);
const PAGES = new URL('web/explorer/', ROOT);
const SOURCES = new URL('web/explorer/src/', ROOT);
const SCRIPTS = new URL('dist/explorer/', ROOT);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The page runs only its own scripts and talks only to this server; tokens never leak through a referrer. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** Asset addresses carry the build's hash, so a browser may keep them for good. */
const ASSET_CACHING = 'public, max-age=31536000, immutable';

/** More apps than a person can choose from in a list; the rest stay reachable by pasting a token. */
const MAX_LISTED_APPS = 200;

interface Asset {
  body: Buffer;
  type: string;
}

interface ExplorerBundle {
  version: string;
  index: string;
  callback: string;
  assets: Map<string, Asset>;
}

let loaded: ExplorerBundle | undefined;

/**
 * Read at the first request and kept: the files only change with a new build, which means a
 * restart. Undefined while the scripts are not built, which leaves the API itself unaffected.
 */
function explorerBundle(): ExplorerBundle | undefined {
  if (loaded || !existsSync(new URL('main.js', SCRIPTS))) return loaded;
  const assets = new Map<string, Asset>();
  const hash = createHash('sha256');
  for (const dir of [PAGES, SCRIPTS]) {
    for (const name of readdirSync(dir).sort()) {
      const type = CONTENT_TYPES[extname(name)];
      // A script whose source is gone is left over from an earlier build.
      if (type === undefined || (dir === SCRIPTS && !existsSync(new URL(name.replace(/\.js$/, '.ts'), SOURCES)))) continue;
      const body = readFileSync(new URL(name, dir));
      assets.set(name, { body, type });
      hash.update(name).update(body);
    }
  }
  const version = hash.digest('hex').slice(0, 12);
  const page = (name: string) => readFileSync(new URL(name, PAGES), 'utf8').replaceAll('{{assets}}', `/explorer/assets/${version}`);
  loaded = { version, index: page('index.html'), callback: page('callback.html'), assets };
  return loaded;
}

export async function explorerRoutes(app: FastifyInstance, { settings }: { settings: AppSettings }): Promise<void> {
  // Described for the schema served now: an applied declaration may replace it between requests.
  let described: { schema: AppSettings['schema']; permissions: { groups: ReturnType<typeof describePermissions> } } | undefined;
  const permissions = () => {
    if (described?.schema !== settings.schema) described = { schema: settings.schema, permissions: { groups: describePermissions(settings.schema) } };
    return described.permissions;
  };
  const page = (choose: (bundle: ExplorerBundle) => string) => (_request: FastifyRequest, reply: FastifyReply) => {
    const bundle = explorerBundle();
    if (!bundle) return reply.code(503).type('text/plain; charset=utf-8').send('The Explorer is not built: run `npm run build`.');
    return reply.headers(PAGE_HEADERS).send(choose(bundle));
  };

  app.get('/explorer', page((bundle) => bundle.index));
  app.get('/explorer/', (_request, reply) => reply.redirect('/explorer', 301));
  app.get(OWN_CALLBACK_PATH, page((bundle) => bundle.callback));

  app.get<{ Params: { version: string; name: string } }>('/explorer/assets/:version/:name', (request, reply) => {
    const bundle = explorerBundle();
    const asset = request.params.version === bundle?.version ? bundle.assets.get(request.params.name) : undefined;
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
    return reply
      .headers({ 'content-type': asset.type, 'cache-control': ASSET_CACHING, 'x-content-type-options': 'nosniff' })
      .send(asset.body);
  });

  // Ids and names only: an app's secret never leaves the server after its creation.
  app.get('/explorer/apps.json', async (request, reply) => {
    const apps = (await settings.store.listApps()).slice(0, MAX_LISTED_APPS);
    const demoApp = await settings.store.getSetting('demo.app_id');
    const data = apps.map((record) => ({ id: String(record.id), name: record.name }));
    return sendJson(request, reply, 200, { data, default_app_id: data.some((entry) => entry.id === demoApp) ? demoApp : data[0]?.id ?? null });
  });

  app.get('/explorer/permissions.json', async (request, reply) => sendJson(request, reply, 200, permissions()));

  // The Explorer follows links the API writes only to Loom itself, and they carry the public URL when one is set.
  app.get('/explorer/config.json', async (request, reply) => sendJson(request, reply, 200, { public_url: settings.publicUrl ?? null }));
}
