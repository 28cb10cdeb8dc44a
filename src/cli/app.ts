import { appAccessToken, registerApp } from '../auth/apps.js';
import { registrableRedirectUri } from '../auth/redirect-uris.js';
import { envDb } from '../config.js';
import type { AppRecord, Store } from '../store/store.js';
import { openStore } from '../store/open-store.js';
import { apiVersionOption } from './api-version-option.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';

const MAX_NAME = 100;
const MAX_REDIRECT_URIS = 20;

export const appHelp = `Usage: loom app create --name NAME [--redirect-uri URL]... [--business ID] [--require-proof]
                       [--api-version V] [--json] [--db PATH|URL]
       loom app list [--json] [--db PATH|URL]

"create" registers an app and prints its id and secret. The secret is shown this
once only; "<id>|<secret>" is the app's access token. "list" shows every app's
id, name, business, redirect URIs and whether it requires appsecret_proof, never
a secret.

Options:
  --name NAME          name of the new app (create; at most ${MAX_NAME} characters)
  --redirect-uri URL   an address the sign-in dialog may send people back to, with
                       the paths below it (repeatable, at most ${MAX_REDIRECT_URIS}; http or https,
                       no ?query or #fragment). Loom's own address and localhost,
                       127.0.0.1 and [::1] are always allowed; any other is refused
  --business ID        put the app in business ID (a positive whole number): the
                       apps of one business share token_for_business and list each
                       other in me/ids_for_business
  --require-proof      refuse Graph calls of the app that lack an appsecret_proof
  --api-version V      the API version (v2.0 … v2.4, or any later published one)
                       the app's unversioned calls are answered in, as the version
                       set in a real app's dashboard; default: the server's
                       (serve --default-version, v2.4)
  --json               create: print {"id","secret"}; list: print a JSON array
  --db PATH|URL        SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  -h, --help           show this help

Example:
  bin/loom app create --name "My App" --redirect-uri https://my.app/callback --json
  curl "http://localhost:8080/v2.4/oauth/access_token?grant_type=client_credentials&client_id=ID&client_secret=SECRET"
`;

const COMMON_OPTIONS = { db: { type: 'string' }, json: { type: 'boolean' } } as const;
const CREATE_OPTIONS = {
  ...COMMON_OPTIONS,
  name: { type: 'string' },
  'require-proof': { type: 'boolean' },
  'redirect-uri': { type: 'string', multiple: true },
  business: { type: 'string' },
  'api-version': { type: 'string' },
} as const;

export async function appCommand(argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === '--help' || action === '-h') return void process.stdout.write(appHelp);
  if (action === 'list') {
    const { values } = parseCommandArgs(rest, COMMON_OPTIONS);
    if (values.help) return void process.stdout.write(appHelp);
    const apps = await withStore(values.db, (store) => store.listApps());
    return void process.stdout.write(values.json ? listJson(apps) : listTable(apps));
  }
  if (action !== 'create') {
    throw new UsageError(action === undefined ? 'say "create" or "list"' : `unknown action "${action}"; say "create" or "list"`);
  }
  const { values } = parseCommandArgs(rest, CREATE_OPTIONS);
  if (values.help) return void process.stdout.write(appHelp);
  const name = values.name?.trim() ?? '';
  if (name === '') throw new UsageError('--name is required');
  if (name.length > MAX_NAME) throw new UsageError(`--name must be at most ${MAX_NAME} characters`);
  const redirectUris = registrableUris(values['redirect-uri'] ?? []);
  const businessId = values.business === undefined ? null : positiveInteger('business', values.business, 0);
  const apiVersion = values['api-version'] === undefined ? null : apiVersionOption('--api-version', values['api-version']);
  const app = await withStore(values.db, (store) =>
    registerApp(store, { name, requireProof: values['require-proof'] === true, businessId, redirectUris, apiVersion, now: Math.floor(Date.now() / 1000) }),
  );
  if (values.json) return void process.stdout.write(`${JSON.stringify({ id: String(app.id), secret: app.secret })}\n`);
  process.stdout.write(
    [
      `Created app "${app.name}"${app.requireProof ? ' (requires appsecret_proof)' : ''}`,
      `  App id:       ${app.id}`,
      `  App secret:   ${app.secret}`,
      `  App token:    ${appAccessToken(app)}`,
      ...(app.businessId === null ? [] : [`  Business:     ${app.businessId}`]),
      ...(app.apiVersion === null ? [] : [`  API version:  ${app.apiVersion}`]),
      ...app.redirectUris.map((uri) => `  Redirect URI: ${uri}`),
      `The secret is shown only now; keep it private.`,
    ].join('\n') + '\n',
  );
}

async function withStore<T>(db: string | undefined, use: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(db ?? envDb());
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

function registrableUris(given: readonly string[]): string[] {
  const uris = new Set<string>();
  for (const text of given) {
    const checked = registrableRedirectUri(text);
    if ('problem' in checked) throw new UsageError(`--redirect-uri: ${checked.problem}`);
    uris.add(checked.uri);
  }
  if (uris.size > MAX_REDIRECT_URIS) throw new UsageError(`at most ${MAX_REDIRECT_URIS} --redirect-uri per app`);
  return [...uris];
}

function listJson(apps: readonly AppRecord[]): string {
  const listed = apps.map((app) => ({
    id: String(app.id),
    name: app.name,
    require_proof: app.requireProof,
    business_id: app.businessId === null ? null : String(app.businessId),
    redirect_uris: app.redirectUris,
    api_version: app.apiVersion,
  }));
  return `${JSON.stringify(listed)}\n`;
}

/** One row per app; its redirect URIs follow on their own indented lines. */
function listTable(apps: readonly AppRecord[]): string {
  const rows = apps.map((app) => [String(app.id), app.requireProof ? 'yes' : 'no', app.businessId === null ? '-' : String(app.businessId), app.name]);
  const width = Math.max(2, ...rows.map((row) => row[0]!.length));
  const businessWidth = Math.max(8, ...rows.map((row) => row[2]!.length));
  const line = ([id, proof, business, name]: string[]) => `${id!.padEnd(width)}  ${proof!.padEnd(5)}  ${business!.padEnd(businessWidth)}  ${name}`;
  const lines = [line(['ID', 'PROOF', 'BUSINESS', 'NAME'])];
  apps.forEach((app, index) => {
    lines.push(line(rows[index]!));
    for (const uri of app.redirectUris) lines.push(`${' '.repeat(width + 2)}redirect URI: ${uri}`);
  });
  return `${lines.join('\n')}\n`;
}
