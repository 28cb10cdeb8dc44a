import { DEFAULT_API_VERSION, type ApiVersion } from '../schema/versions.js';
import { apiVersionOption } from './api-version-option.js';
import cluster from 'node:cluster';
import { appAccessToken } from '../auth/apps.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { DEFAULT_PORT, DEMO_SEED, DEMO_USERS, envDb, envMediaDir, envPort, envProfileHost, envPublicUrl, envTokenLifetime } from '../config.js';
import { DEMO_PASSWORD } from '../seed/demo-graph.js';
import { buildApp } from '../http/app.js';
import { Schema } from '../schema/registry.js';
import { openStore, redactPassword } from '../store/open-store.js';
import type { AppRecord, Store } from '../store/store.js';
import { parseCommandArgs, positiveInteger, positiveIntegerFrom, UsageError } from './args.js';
import { findDemo, issueToken } from './demo.js';
import { seedDemo, startOfToday } from './seed.js';
import { startWorkers } from './workers.js';

const MAX_PORT = 65_535;

export const serveHelp = `Usage: loom serve [--port N] [--host H] [--db PATH|URL] [--workers N] [--media-dir DIR]
                  [--public-url URL] [--profile-host URL] [--token-lifetime S] [--default-version V]
                  [--allow-private-photo-urls] [--log FILE|-|off] [--no-demo]

Serves the Graph API. On an empty database it first seeds the demo graph (and
prints the demo app's secret, this once), then prints the URL, a demo user access
token, the demo user's sign-in email and password (for the OAuth dialog) and
example requests.

Options:
  --port N            port to listen on (default: $PORT or 8080)
  --host H            address to bind (default: 127.0.0.1; 0.0.0.0 for every interface)
  --db PATH|URL       SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  --workers N         serve from N processes sharing the port (default: 1); any of
                      them answers any request, best on PostgreSQL
  --media-dir DIR     where uploaded photos are kept (default: $LOOM_MEDIA_DIR or ./loom-media)
  --public-url URL    base of the absolute links Loom writes (paging, metadata);
                      default: $LOOM_PUBLIC_URL, else the host each request names
  --profile-host URL  host of people's profile links (the user field link);
                      default: $LOOM_PROFILE_HOST, else https://www.facebook.com
  --token-lifetime S  seconds the user tokens of the sign-in dialog (and the printed
                      demo token) last; default: $LOOM_TOKEN_LIFETIME or ${SHORT_LIVED_SECONDS}
  --default-version V the API version of unversioned calls made without a token or by
                      an app that names none (bin/loom app create --api-version);
                      default: v2.4. Versioned paths (/v2.0/me) always answer in theirs
  --allow-private-photo-urls
                      let photo uploads by url fetch from loopback and private networks
                      (refused by default, so a token cannot probe the machines around Loom)
  --log FILE|-|off    where the one JSON line per request goes: appended to FILE,
                      "-" for standard output, or "off"; default: off when standard
                      output is a terminal (it shows the banner), else standard output
  --no-demo           do not seed the demo graph into an empty database
  -h, --help          show this help
`;

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    db: { type: 'string' },
    'media-dir': { type: 'string' },
    'public-url': { type: 'string' },
    'profile-host': { type: 'string' },
    'token-lifetime': { type: 'string' },
    'no-demo': { type: 'boolean' },
    'allow-private-photo-urls': { type: 'boolean' },
    workers: { type: 'string' },
    'default-version': { type: 'string' },
    log: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(serveHelp);
  const port = positiveIntegerFrom({ '--port': values.port, PORT: envPort() }, DEFAULT_PORT, MAX_PORT);
  const host = values.host ?? '127.0.0.1';
  const db = values.db ?? envDb();
  const publicUrl = values['public-url'] ?? envPublicUrl();
  const profileHost = values['profile-host'] ?? envProfileHost();
  const tokenLifetime = positiveIntegerFrom(
    { '--token-lifetime': values['token-lifetime'], LOOM_TOKEN_LIFETIME: envTokenLifetime() },
    SHORT_LIVED_SECONDS,
  );
  const workers = positiveInteger('workers', values.workers, 1);
  const listen: Listen = {
    port,
    host,
    publicUrl,
    profileHost,
    tokenLifetime,
    defaultVersion: values['default-version'] === undefined ? DEFAULT_API_VERSION : apiVersionOption('--default-version', values['default-version']),
    mediaDir: values['media-dir'] ?? envMediaDir(),
    allowPrivatePhotoUrls: values['allow-private-photo-urls'] === true,
    log: requestLog(values.log),
  };

  const store = openStore(db);
  // A worker runs this same command line, and only serves: the primary seeded and reports.
  if (cluster.isWorker) return serveRequests(store, listen);
  const seeded = values['no-demo'] ? undefined : await seedDemo(store, redactPassword(db), { users: DEMO_USERS, seed: DEMO_SEED, now: startOfToday() });
  if (workers > 1) await startWorkers(workers);
  else await serveRequests(store, listen);

  const base = publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const demo = await findDemo(store);
  const processes = workers > 1 ? ` from ${workers} worker processes` : '';
  const lines = [``, `Loom is serving the Graph API at ${base}/${listen.defaultVersion}/${processes}`];
  if (demo) {
    const token = await issueToken(store, demo.app, demo.user.id, Schema.default().allScopes(listen.defaultVersion), tokenLifetime);
    const credentials = await store.getCredentials(demo.user.id);
    lines.push(
      `Demo user: ${String(demo.user.data.name)} (id ${token.scopedUserId}), app "${demo.app.name}" (id ${demo.app.id})`,
      ...demoAppSecretLines(demo.app, typeof seeded === 'object'),
      `Access token (valid ${describeSeconds(tokenLifetime)}): ${token.accessToken}`,
      `Explorer (get and renew tokens, run queries): ${base}/explorer`,
      ...(credentials ? [`Demo sign-in (OAuth dialog): email ${credentials.email}, password ${DEMO_PASSWORD}`] : []),
      ``,
      `Try:`,
      `  curl -g '${base}/${listen.defaultVersion}/me?fields=id,name,birthday,friends.limit(3){name}&access_token=${token.accessToken}'`,
      `  curl -g '${base}/${listen.defaultVersion}/me/feed?limit=2&fields=message,likes.summary(true).limit(0)&access_token=${token.accessToken}'`,
      ``,
      `A new token: bin/loom token --db ${redactPassword(db)}`,
    );
  } else {
    lines.push(`This database holds no demo graph (started with --no-demo).`);
  }
  if (listen.log === false) lines.push(`Request logs are off (--log FILE keeps them in a file, --log - prints them here)`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
  // The workers serve with their own connections.
  if (workers > 1) await store.close();
}

/**
 * The demo app's secret is printed once, by the process that created it; after that only
 * `app reset-secret` shows one (a new one), so the banner says so.
 */
function demoAppSecretLines(app: AppRecord, createdNow: boolean): string[] {
  const again = `bin/loom app reset-secret ${app.id}`;
  if (!createdNow) return [`Demo app secret: shown when it was created; "${again}" prints a new one`];
  return [
    `Demo app secret (shown this once; "${again}" prints a new one): ${app.secret}`,
    `Demo app token (for test users, debug_token, the code exchange): ${appAccessToken(app)}`,
  ];
}

/** Where request logs go: `--log`, else nowhere when a person watches the banner, else standard output. */
function requestLog(choice: string | undefined): Listen['log'] {
  if (choice === undefined) return process.stdout.isTTY ? false : true;
  if (choice === 'off') return false;
  if (choice === '-') return true;
  if (choice === '') throw new UsageError('--log needs a file, "-" or "off"');
  return { file: choice };
}

interface Listen {
  port: number;
  host: string;
  publicUrl: string | undefined;
  profileHost: string | undefined;
  tokenLifetime: number;
  defaultVersion: ApiVersion;
  mediaDir: string;
  allowPrivatePhotoUrls: boolean;
  log: boolean | { file: string };
}

async function serveRequests(
  store: Store,
  { port, host, publicUrl, profileHost, tokenLifetime, defaultVersion, mediaDir, allowPrivatePhotoUrls, log }: Listen,
): Promise<void> {
  const allowedHosts = loopbackHosts(host, publicUrl);
  const app = await buildApp({
    store,
    mediaDir,
    allowPrivatePhotoUrls,
    ...(allowedHosts ? { allowedHosts } : {}),
    logger: log,
    tokenLifetime,
    defaultVersion,
    ...(publicUrl ? { publicUrl } : {}),
    ...(profileHost ? { profileHost } : {}),
  });
  const close = async () => {
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close();
    await store.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`port ${port} on ${host} is already in use (another Loom?); choose another with --port N or PORT=N`, { help: false });
    }
    throw error;
  }
}

function describeSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1', '[::1]'];

/**
 * On a loopback address, the names a request may use: the loopback ones and the public URL's.
 * Anything else can only come from a page whose own name was pointed at this machine.
 */
function loopbackHosts(host: string, publicUrl: string | undefined): string[] | undefined {
  if (!LOOPBACK_NAMES.includes(host)) return undefined;
  return publicUrl && URL.canParse(publicUrl) ? [...LOOPBACK_NAMES, new URL(publicUrl).hostname] : LOOPBACK_NAMES;
}
