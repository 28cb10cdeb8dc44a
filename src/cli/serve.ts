import { DEFAULT_API_VERSION, type ApiVersion } from '../schema/versions.js';
import { apiVersionOption } from './api-version-option.js';
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { appAccessToken } from '../auth/apps.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { Clock } from '../clock/clock.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '../control/journal.js';
import { prepareGraph } from '../server/prepare-graph.js';
import { DEFAULT_PORT, DEMO_SEED, DEMO_USERS, envDb, envValue } from '../config.js';
import { DEFAULT_TIMEOUTS, type RequestTimeouts } from '../http/connection-limits.js';
import { databaseNameOf } from '../media/media-folder.js';
import { DEFAULT_MEDIA_SWEEP, type MediaSweepSettings } from '../media/media-sweeper.js';
import { claimedMediaDir, reportSweep } from './serve-media.js';
import { DEMO_PASSWORD } from '../seed/demo-graph.js';
import { buildApp } from '../server/build-app.js';
import { authorityDirFor, INTERCEPTED_HOSTS, type HostCredentials } from '../intercept/intercepted-hosts.js';
import type { CertificateAuthority } from '../intercept/certificate-authority.js';
import { Schema } from '../schema/registry.js';
import { openStore } from '../store/open-store.js';
import { isPostgresStore } from '../store/postgres/postgres-store.js';
import { replicaOptions } from './serve-replicas.js';
import { serveHelp } from './serve-help.js';
import { redactPassword } from '../store/redact-password.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import { flagOptions, parseCommandArgs, positiveInteger, positiveIntegerFrom, UsageError, valueOptions } from './args.js';
import { issueToken } from './demo.js';
import { findDemo } from '../seed/demo-app.js';
import { seedDemo, startOfToday } from '../seed/seed-once.js';
import { startWorkers } from './workers.js';
import { baseUrlOption, mediaDirOption, requestLog } from './serve-locations.js';
import { explain } from './schema.js';
import { applyDeclaration } from '../declared/apply.js';
import { followAppliedSchema, loadAppliedSchema } from '../declared/applied.js';
import { describeChange } from '../declared/diff.js';
import { loadDeclaration } from '../declared/load.js';
import { sharedClock } from '../control/control-plane.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../webhooks/settings.js';
import { graphSchema } from '../graph/graph-schema.js';
import { describeSearchReindex, type SearchReindex } from '../store/search.js';

/** The intercept's authority; its X.509 libraries load only for a server that intercepts. */
async function openCertificateAuthority(dir: string): Promise<CertificateAuthority> {
  return (await import('../intercept/certificate-authority.js')).openCertificateAuthority(dir);
}

const MAX_PORT = 65_535;
/** A day: a longer timeout is no timeout, and Node's timers hold at most about 24 days. */
const MAX_TIMEOUT = 86_400;


/** `--min-body-rate`, else LOOM_MIN_BODY_RATE: whole bytes a second, 0 for no minimum. */
function minBodyRate(flag: string | undefined): number {
  for (const [name, value] of Object.entries({ '--min-body-rate': flag, LOOM_MIN_BODY_RATE: envValue('LOOM_MIN_BODY_RATE') })) {
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new UsageError(`${name} must be a whole number of bytes a second (0: no minimum), not "${value}"`);
    }
    return Number(value);
  }
  return DEFAULT_TIMEOUTS.minBodyRate;
}

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...valueOptions('port', 'host', 'db', 'media-dir', 'media-sweep-interval', 'public-url', 'profile-host', 'token-lifetime'),
    ...flagOptions('no-demo', 'allow-private-photo-urls', 'intercept'),
    ...valueOptions('workers', 'default-version', 'header-timeout', 'body-timeout', 'min-body-rate', 'log', 'admin-key', 'journal-size'),
    ...flagOptions('ephemeral', 'rate-limits', 'allow-private-webhooks'),
    ...valueOptions('webhook-window', 'webhook-retry-for', 'schema'),
    'read-replica': { type: 'string', multiple: true },
    ...valueOptions('max-replica-lag'),
  });
  if (values.help) return void process.stdout.write(serveHelp);
  const port = values.port === '0' ? 0 : positiveIntegerFrom({ '--port': values.port, PORT: envValue('PORT') }, DEFAULT_PORT, MAX_PORT);
  const host = values.host ?? '127.0.0.1';
  const db = values.db ?? envDb();
  const replicas = replicaOptions(db, values['read-replica'], values['max-replica-lag']);
  const publicUrl = baseUrlOption({ '--public-url': values['public-url'], LOOM_PUBLIC_URL: envValue('LOOM_PUBLIC_URL') });
  const profileHost = baseUrlOption({ '--profile-host': values['profile-host'], LOOM_PROFILE_HOST: envValue('LOOM_PROFILE_HOST') });
  const tokenLifetime = positiveIntegerFrom(
    { '--token-lifetime': values['token-lifetime'], LOOM_TOKEN_LIFETIME: envValue('LOOM_TOKEN_LIFETIME') },
    SHORT_LIVED_SECONDS,
  );
  const workers = positiveInteger('workers', values.workers, 1);
  if (port === 0 && workers > 1) throw new UsageError('--port 0 serves from one process; name a port for --workers');
  const adminKey = values['admin-key'] ?? envValue('LOOM_ADMIN_KEY');
  const journalSize = positiveInteger('journal-size', values['journal-size'], DEFAULT_JOURNAL_SIZE);
  if (journalSize > MAX_JOURNAL_SIZE) throw new UsageError(`--journal-size must be at most ${MAX_JOURNAL_SIZE}`);
  const givenMediaDir = values['media-dir'] ?? envValue('LOOM_MEDIA_DIR');
  if (givenMediaDir) mediaDirOption(givenMediaDir);
  const timeouts: RequestTimeouts = {
    headerMs: 1000 * positiveIntegerFrom({ '--header-timeout': values['header-timeout'], LOOM_HEADER_TIMEOUT: envValue('LOOM_HEADER_TIMEOUT') }, DEFAULT_TIMEOUTS.headerMs / 1000, MAX_TIMEOUT),
    bodyIdleMs: 1000 * positiveIntegerFrom({ '--body-timeout': values['body-timeout'], LOOM_BODY_TIMEOUT: envValue('LOOM_BODY_TIMEOUT') }, DEFAULT_TIMEOUTS.bodyIdleMs / 1000, MAX_TIMEOUT),
    minBodyRate: minBodyRate(values['min-body-rate']),
    bodyRateGraceMs: DEFAULT_TIMEOUTS.bodyRateGraceMs,
  };
  const settings: Omit<Listen, 'mediaDir' | 'database'> = {
    port,
    host,
    publicUrl,
    profileHost,
    tokenLifetime,
    defaultVersion: values['default-version'] === undefined ? DEFAULT_API_VERSION : apiVersionOption('--default-version', values['default-version']),
    mediaSweep: { ...DEFAULT_MEDIA_SWEEP, everyMs: 1000 * positiveInteger('media-sweep-interval', values['media-sweep-interval'], DEFAULT_MEDIA_SWEEP.everyMs / 1000) },
    allowPrivatePhotoUrls: values['allow-private-photo-urls'] === true,
    interceptAuthorityDir: values.intercept ? authorityDirFor(db) : undefined,
    timeouts,
    log: requestLog(values.log),
    ...(adminKey ? { adminKey } : {}),
    journalSize,
    rateLimits: values['rate-limits'] === true,
    webhooks: {
      // Local receivers are what webhooks on a developer's machine are for.
      allowPrivate: values['allow-private-webhooks'] === true || LOOPBACK_NAMES.includes(host),
      windowMs: positiveInteger('webhook-window', values['webhook-window'], DEFAULT_WEBHOOK_SETTINGS.windowMs),
      retryFor: positiveInteger('webhook-retry-for', values['webhook-retry-for'], DEFAULT_WEBHOOK_SETTINGS.retryFor),
    },
  };
  if (values.ephemeral) {
    if (values.db !== undefined || workers > 1 || replicas !== undefined) {
      throw new UsageError('--ephemeral makes its own database and serves from one process; leave out --db, --workers and --read-replica');
    }
    return serveEphemeral(settings, values['no-demo'] !== true);
  }

  // The primary creates the authority before any worker starts, so they all load the same one.
  if (settings.interceptAuthorityDir && cluster.isPrimary) await openCertificateAuthority(settings.interceptAuthorityDir);
  const store = openStore(db, replicas);
  // A replica that cannot be reached refuses the start, named.
  if (replicas !== undefined && isPostgresStore(store)) await store.ready.catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  // Before anything is written: a media folder of another database refuses the start.
  const mediaDir = await claimedMediaDir(store, db, givenMediaDir).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const listen: Listen = { ...settings, database: databaseNameOf(db), mediaDir };
  // The primary applies the file; workers, running this same command line, serve what it applied.
  if (values.schema !== undefined && cluster.isPrimary) await applySchemaFile(store, values.schema);
  const declared = await explain(() => loadAppliedSchema(store));
  if (declared) {
    listen.schema = declared.schema;
    listen.followSchema = followAppliedSchema(store, { version: declared.applied.version, schema: declared.schema });
  }
  // A worker runs this same command line, and only serves: the primary seeded and reports.
  if (cluster.isWorker) return void (await serveRequests(store, listen));
  // A database serving its own declared types gets no demo graph of the built-in ones.
  const seeded = values['no-demo'] || declared ? undefined : await seedDemo(store, redactPassword(db), { users: DEMO_USERS, seed: DEMO_SEED, now: startOfToday() });
  if (workers > 1) {
    // Built once here, without serving, so that every key the app makes is in the start state.
    const { mediaDir, database } = listen;
    await (await buildApp({ store, mediaDir, database, recordStart: true, onSearchReindex: announceReindex, ...(listen.schema ? { schema: listen.schema } : {}) })).close();
    await startWorkers(workers);
  } else {
    const address = (await serveRequests(store, listen, true)).server.address();
    if (typeof address === 'object' && address) listen.port = address.port;
  }

  const base = publicUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${listen.port}`;
  const demo = await findDemo(store);
  const processes = workers > 1 ? ` from ${workers} worker processes` : '';
  const lines = [``, `Loom is serving the Graph API at ${base}/${listen.defaultVersion}/${processes}`, `Uploaded photos and videos are kept in ${listen.mediaDir}`];
  if (listen.interceptAuthorityDir) {
    const authority = await openCertificateAuthority(listen.interceptAuthorityDir);
    lines.push(`Intercepting ${INTERCEPTED_HOSTS.join(', ')}: HTTPS_PROXY=${base} NODE_EXTRA_CA_CERTS=${authority.certificatePath}`);
  }
  if (declared) {
    const { applied } = declared;
    lines.push(
      `Schema "${applied.name}" (applied version ${applied.version}), app id ${applied.appId}`,
      `A new token (for the ${declared.schema.principal} of your key KEY): bin/loom token --db ${redactPassword(db)} --principal KEY --scopes ${declared.schema.allScopes().join(',')}`,
    );
  } else if (demo) {
    const schema = graphSchema();
    const token = await issueToken(store, schema.permissions, demo.app, demo.user.id, schema.allScopes(listen.defaultVersion), tokenLifetime);
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

/** `--schema FILE`: applies the file as `loom schema apply` does (refusing to start on any problem), then serves it. */
async function applySchemaFile(store: Store, file: string): Promise<void> {
  const loaded = await explain(async () => loadDeclaration(file));
  const result = await explain(async () => applyDeclaration(store, loaded, (await sharedClock(store)).now()));
  for (const change of result.changes) process.stderr.write(`${describeChange(change)}\n`);
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

interface Listen {
  port: number;
  host: string;
  publicUrl: string | undefined;
  profileHost: string | undefined;
  tokenLifetime: number;
  defaultVersion: ApiVersion;
  /** The database's media folder, claimed. */
  mediaDir: string;
  /** Where the database lives, as the media folder's owner file names it. */
  database: string;
  mediaSweep: MediaSweepSettings;
  allowPrivatePhotoUrls: boolean;
  timeouts: RequestTimeouts;
  log: boolean | { file: string };
  adminKey?: string;
  journalSize: number;
  rateLimits: boolean;
  webhooks: Pick<WebhookSettings, 'allowPrivate' | 'windowMs' | 'retryFor'>;
  /** Where the intercepting proxy's authority lives; no proxy when absent. */
  interceptAuthorityDir: string | undefined;
  /** The applied declaration's Schema, and the newer ones as they are applied; the built-in types when absent. */
  schema?: Schema;
  followSchema?: (authVersion: number) => Promise<Schema>;
}

/** A large reindex takes a while before the server listens: said first, so the wait is never silent. */
function announceReindex(reindex: SearchReindex): void {
  process.stderr.write(`loom: ${describeSearchReindex(reindex)}\n`);
}

async function serveRequests(store: Store, listen: Listen, recordStart = false, ephemeral?: { remove: () => void }): Promise<FastifyInstance> {
  const { port, host, publicUrl, profileHost, tokenLifetime, defaultVersion, mediaDir, database, mediaSweep, allowPrivatePhotoUrls, adminKey, journalSize, rateLimits, log, timeouts, webhooks } =
    listen;
  const allowedHosts = loopbackHosts(host, publicUrl);
  const intercept: HostCredentials | undefined = listen.interceptAuthorityDir
    ? await (await openCertificateAuthority(listen.interceptAuthorityDir)).issueHostCredentials()
    : undefined;
  const app = await buildApp({
    store,
    ...(listen.schema ? { schema: listen.schema } : {}),
    ...(listen.followSchema ? { followSchema: listen.followSchema } : {}),
    mediaDir,
    database,
    // An ephemeral server's stderr is its caller's; the sweeps there report to nobody.
    mediaSweep: { ...mediaSweep, report: ephemeral !== undefined ? () => {} : reportSweep(mediaDir) },
    allowPrivatePhotoUrls,
    recordStart,
    onSearchReindex: announceReindex,
    journalSize,
    rateLimits,
    ...(adminKey ? { adminKey } : {}),
    ...(allowedHosts ? { allowedHosts } : {}),
    // An ephemeral server's stdout carries only its one line of JSON.
    logger: ephemeral !== undefined ? false : log,
    tokenLifetime,
    webhooks: { ...webhooks, deliver: true },
    defaultVersion,
    timeouts,
    ...(publicUrl ? { publicUrl } : {}),
    ...(profileHost ? { profileHost } : {}),
    ...(intercept ? { intercept } : {}),
  });
  let closing = false;
  const close = async () => {
    // Ctrl-C under npm reaches the server twice, from the terminal and forwarded by npm: one close.
    if (closing) return;
    closing = true;
    await app.close();
    await store.close();
    ephemeral?.remove();
    process.exit(0);
  };
  process.on('SIGINT', () => void close());
  process.on('SIGTERM', () => void close());
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
  return app;
}

/**
 * A server for one test run in any language: a fresh database in a temporary directory, one JSON
 * line on stdout once it listens, everything deleted when it is stopped.
 */
async function serveEphemeral(listen: Omit<Listen, 'mediaDir' | 'database'>, demo: boolean): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'loom-'));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  process.once('exit', remove);
  const database = join(directory, 'loom.db');
  const store = openStore(database);
  const app = await prepareGraph(store, { demo }, Clock.real());
  const server = await serveRequests(store, { ...listen, database, mediaDir: join(directory, 'media') }, true, { remove });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  process.stdout.write(`${JSON.stringify({ url: listen.publicUrl ?? `http://${host}:${port}`, app_id: String(app.id), app_secret: app.secret })}\n`);
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
