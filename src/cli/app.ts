import { appUpdateProblem, deleteApp, updateApp, type AppUpdate } from '../auth/app-admin.js';
import { appAccessToken, appSecretProblem, fixedAppIdProblem, newAppSecret, registerApp } from '../auth/apps.js';
import { registrableRedirectUri } from '../auth/redirect-uris.js';
import { IdTakenError, SEQUENCE_ID_LIMIT, type AppRecord } from '../store/auth-store.js';
import { apiVersionOption } from './api-version-option.js';
import { sharedClock } from '../control/control-plane.js';
import { action, DB_JSON_OPTIONS, DB_OPTION, flagOptions, positiveInteger, runAction, UsageError, valueOptions, type Action, type ActionArgs } from './args.js';
import { withExistingStore, withStore } from './with-store.js';

const MAX_NAME = 100;
const MAX_REDIRECT_URIS = 20;

export const appHelp = `Usage: loom app create --name NAME [--id ID --secret SECRET] [--redirect-uri URL]... [--business ID] [--require-proof]
                       [--api-version V] [--json] [--db PATH|URL]
       loom app list [--json] [--db PATH|URL]
       loom app update ID [--name NAME] [--redirect-uri URL]... [--business ID|--no-business]
                          [--require-proof|--no-require-proof] [--namespace NS] [--category TEXT]
                          [--api-version V] [--restrictions JSON] [--calls-per-hour N] [--db PATH|URL]
       loom app delete ID [--db PATH|URL]
       loom app reset-secret ID [--json] [--db PATH|URL]

"create" registers an app and prints its id and secret. The secret is shown this
once only; "<id>|<secret>" is the app's access token. With --id and --secret the
app takes the id and secret given (as test suites that hard-code an app's
credentials need); an id already taken, by an app or any other object, or by an
app deleted before, is refused. "list" shows every app's id, name, business,
redirect URIs and whether it requires appsecret_proof, never a secret.
"update" changes what it is given and leaves the rest; --redirect-uri replaces
the whole list. "delete" removes the app with its grants, tokens and codes; from
then on its id, secret and tokens are answered "Error validating application.
Application has been deleted." (its test users stay, without the app).
"reset-secret" gives app ID a new secret and prints it (the only way to see a
secret again, the demo app's included); the old one stops working at once, and
so do app tokens and appsecret_proof made with it.

Options:
  --name NAME          name of the app (at most ${MAX_NAME} characters)
  --id ID              create: the app's id, a whole number from ${SEQUENCE_ID_LIMIT}
                       up (real app ids, of 15 or 16 digits, fit); needs --secret
  --secret SECRET      create: the app's secret, 16 to 128 letters, digits, "_" or "-"
  --redirect-uri URL   an address the sign-in dialog may send people back to, with
                       the paths below it (repeatable, at most ${MAX_REDIRECT_URIS}; http or https,
                       no ?query or #fragment). Loom's own address and localhost,
                       127.0.0.1 and [::1] are always allowed; any other is refused
  --business ID        put the app in business ID (a positive whole number): the
                       apps of one business share token_for_business and list each
                       other in me/ids_for_business (update: --no-business takes it out)
  --require-proof      refuse Graph calls of the app that lack an appsecret_proof
                       (update: --no-require-proof stops requiring it)
  --api-version V      the API version (v2.0 … v2.4, or any later published one)
                       the app's unversioned calls are answered in, as the version
                       set in a real app's dashboard; default: the server's
                       (serve --default-version, v2.4)
  --namespace NS       update: the app's namespace (lower case; "" removes it)
  --category TEXT      update: the app's category ("" removes it)
  --restrictions JSON  update: who may see the app, a JSON object such as
                       '{"age":"21+"}' ('{}' removes them)
  --calls-per-hour N   update: the app's call budget per rolling hour when the server
                       counts rate limits (serve --rate-limits); 0 goes back to the
                       real formula, 200 calls per hour for each user of the app
  --json               create, reset-secret: print {"id","secret"}; list: print a JSON array
  --db PATH|URL        SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  -h, --help           show this help

Example:
  bin/loom app create --name "My App" --redirect-uri https://my.app/callback --json
  curl "http://localhost:8080/v2.4/oauth/access_token?grant_type=client_credentials&client_id=ID&client_secret=SECRET"
`;

const CREATE_OPTIONS = {
  ...DB_JSON_OPTIONS,
  ...valueOptions('name'),
  ...flagOptions('require-proof'),
  'redirect-uri': { type: 'string', multiple: true },
  ...valueOptions('business', 'id', 'secret', 'api-version'),
} as const;
const UPDATE_OPTIONS = {
  ...valueOptions('db', 'name'),
  ...flagOptions('require-proof', 'no-require-proof'),
  'redirect-uri': { type: 'string', multiple: true },
  ...valueOptions('business'),
  ...flagOptions('no-business'),
  ...valueOptions('namespace', 'category', 'restrictions', 'api-version', 'calls-per-hour'),
} as const;
const ACTIONS: Readonly<Record<string, Action>> = {
  create: action(CREATE_OPTIONS, createCommand),
  list: action(DB_JSON_OPTIONS, listCommand),
  update: action(UPDATE_OPTIONS, updateCommand, { positionals: true }),
  delete: action(DB_OPTION, deleteCommand, { positionals: true }),
  'reset-secret': action(DB_JSON_OPTIONS, resetSecret, { positionals: true }),
};

export async function appCommand(argv: string[]): Promise<void> {
  return runAction(argv, ACTIONS, appHelp);
}

async function listCommand({ values }: ActionArgs<typeof DB_JSON_OPTIONS>): Promise<void> {
  const apps = await withExistingStore(values.db, (store) => store.listApps());
  process.stdout.write(values.json ? listJson(apps) : listTable(apps));
}

async function createCommand({ values }: ActionArgs<typeof CREATE_OPTIONS>): Promise<void> {
  const name = values.name?.trim() ?? '';
  if (name === '') throw new UsageError('--name is required');
  if (name.length > MAX_NAME) throw new UsageError(`--name must be at most ${MAX_NAME} characters`);
  if ((values.id === undefined) !== (values.secret === undefined)) throw new UsageError('--id and --secret go together');
  const id = values.id === undefined ? undefined : fixedId(values.id);
  if (values.secret !== undefined) {
    const problem = appSecretProblem(values.secret);
    if (problem) throw new UsageError(`--secret: ${problem}`);
  }
  const redirectUris = registrableUris(values['redirect-uri'] ?? []);
  const businessId = values.business === undefined ? null : positiveInteger('business', values.business, 0);
  const app = await withStore(values.db, async (store) => {
    try {
      return await registerApp(store, {
        id,
        secret: values.secret,
        name,
        requireProof: values['require-proof'] === true,
        businessId,
        redirectUris,
        apiVersion: values['api-version'] === undefined ? null : apiVersionOption('--api-version', values['api-version']),
        now: (await sharedClock(store)).now(),
      });
    } catch (error) {
      if (error instanceof IdTakenError) throw new UsageError(`--id: the id ${error.id} is already taken`);
      throw error;
    }
  });
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

/** `loom app update ID …`: changes what is given, through the one function that changes apps. */
async function updateCommand({ values, positionals }: ActionArgs<typeof UPDATE_OPTIONS>): Promise<void> {
  const id = existingId('update', positionals);
  if (values['require-proof'] && values['no-require-proof']) throw new UsageError('--require-proof and --no-require-proof exclude each other');
  if (values.business !== undefined && values['no-business']) throw new UsageError('--business and --no-business exclude each other');
  const update: AppUpdate = {
    name: values.name,
    requireProof: values['require-proof'] ? true : values['no-require-proof'] ? false : undefined,
    businessId: values['no-business'] ? null : values.business === undefined ? undefined : positiveInteger('business', values.business, 0),
    redirectUris: values['redirect-uri'] === undefined ? undefined : registrableUris(values['redirect-uri']),
    namespace: values.namespace,
    category: values.category,
    restrictions: values.restrictions === undefined ? undefined : restrictionsOption(values.restrictions),
    apiVersion: values['api-version'] === undefined ? undefined : apiVersionOption('--api-version', values['api-version']),
    callsPerHour: callsPerHourOption(values['calls-per-hour']),
  };
  if (Object.values(update).every((value) => value === undefined)) throw new UsageError('nothing to update: give at least one option');
  const problem = appUpdateProblem(update);
  if (problem) throw new UsageError(problem);
  const app = await withExistingStore(values.db, async (store) => updateApp(store, id, update, (await sharedClock(store)).now()));
  if (!app) throw new UsageError(`there is no app ${id}`, { help: false });
  process.stdout.write(`Updated app ${app.id} "${app.name}"\n`);
}

/** A whole number of calls; 0 (the real formula again) becomes null. */
function callsPerHourOption(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--calls-per-hour must be a whole number, not "${value}"`);
  return Number(value) === 0 ? null : Number(value);
}

/** `loom app delete ID`: through the one function that deletes apps. */
async function deleteCommand({ values, positionals }: ActionArgs<typeof DB_OPTION>): Promise<void> {
  const id = existingId('delete', positionals);
  const deleted = await withExistingStore(values.db, async (store) => deleteApp(store, id, (await sharedClock(store)).now()));
  if (!deleted) throw new UsageError(`there is no app ${id}`, { help: false });
  process.stdout.write(`Deleted app ${id}\n`);
}

/** The one argument of `update`, `delete` and `reset-secret`: an app's id. */
function existingId(action: string, positionals: readonly string[]): number {
  const [text, ...extra] = positionals;
  if (text === undefined) throw new UsageError(`give the id of an app: loom app ${action} ID`);
  if (extra.length > 0) throw new UsageError(`${action} takes one app id, not ${positionals.length} arguments`);
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`"${text}" is not an app id`);
  return Number(text);
}

function fixedId(text: string): number {
  const id = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  const problem = fixedAppIdProblem(id);
  if (problem) throw new UsageError(`--id: ${problem}`);
  return id;
}

function restrictionsOption(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Said below.
  }
  throw new UsageError('--restrictions must be a JSON object');
}

/** `app reset-secret ID`: a new random secret for the app, printed once like a new app's. */
async function resetSecret({ values, positionals }: ActionArgs<typeof DB_JSON_OPTIONS>): Promise<void> {
  const id = existingId('reset-secret', positionals);
  const secret = newAppSecret();
  // Through the one function that changes apps, as every change of a secret goes.
  const found = await withExistingStore(values.db, async (store) => updateApp(store, id, { secret }, (await sharedClock(store)).now()));
  if (!found) throw new UsageError(`there is no app with id ${id}`, { help: false });
  if (values.json) return void process.stdout.write(`${JSON.stringify({ id: String(id), secret })}\n`);
  process.stdout.write(
    [
      `New secret of app ${id} (the old one no longer works)`,
      `  App secret:   ${secret}`,
      `  App token:    ${id}|${secret}`,
      `The secret is shown only now; keep it private.`,
    ].join('\n') + '\n',
  );
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
