import { appAccessToken, registerApp } from '../auth/apps.js';
import { envDb } from '../config.js';
import { openStore } from '../store/open-store.js';
import { parseCommandArgs, UsageError } from './args.js';

const MAX_NAME = 100;

export const appHelp = `Usage: loom app create --name NAME [--require-proof] [--json] [--db PATH]
       loom app list [--json] [--db PATH]

"create" registers an app and prints its id and secret. The secret is shown this
once only; "<id>|<secret>" is the app's access token. "list" shows every app's
id, name and whether it requires appsecret_proof, never a secret.

Options:
  --name NAME       name of the new app (create; at most ${MAX_NAME} characters)
  --require-proof   refuse Graph calls of the app that lack an appsecret_proof
  --json            create: print {"id","secret"}; list: print a JSON array
  --db PATH         SQLite file (default: $LOOM_DB or ./loom.db)
  -h, --help        show this help

Example:
  bin/loom app create --name "My App" --json
  curl "http://localhost:8080/v2.4/oauth/access_token?grant_type=client_credentials&client_id=ID&client_secret=SECRET"
`;

export async function appCommand(argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  if (action === '--help' || action === '-h') return void process.stdout.write(appHelp);
  if (action !== 'create' && action !== 'list') {
    throw new UsageError(action === undefined ? 'say "create" or "list"' : `unknown action "${action}"; say "create" or "list"`);
  }
  const { values } = parseCommandArgs(rest, {
    db: { type: 'string' },
    json: { type: 'boolean' },
    ...(action === 'create' ? { name: { type: 'string' }, 'require-proof': { type: 'boolean' } } as const : {}),
  });
  if (values.help) return void process.stdout.write(appHelp);
  const store = openStore(values.db ?? envDb());
  try {
    if (action === 'list') {
      const apps = await store.listApps();
      if (values.json) {
        const listed = apps.map((app) => ({ id: String(app.id), name: app.name, require_proof: app.requireProof }));
        return void process.stdout.write(`${JSON.stringify(listed)}\n`);
      }
      const rows = apps.map((app) => [String(app.id), app.requireProof ? 'yes' : 'no', app.name]);
      const width = Math.max(2, ...rows.map((row) => row[0]!.length));
      const lines = [['ID', 'PROOF', 'NAME'], ...rows].map(([id, proof, name]) => `${id!.padEnd(width)}  ${proof!.padEnd(5)}  ${name}`);
      return void process.stdout.write(`${lines.join('\n')}\n`);
    }
    const name = typeof values.name === 'string' ? values.name.trim() : '';
    if (name === '') throw new UsageError('--name is required');
    if (name.length > MAX_NAME) throw new UsageError(`--name must be at most ${MAX_NAME} characters`);
    const app = await registerApp(store, { name, requireProof: values['require-proof'] === true, now: Math.floor(Date.now() / 1000) });
    if (values.json) return void process.stdout.write(`${JSON.stringify({ id: String(app.id), secret: app.secret })}\n`);
    process.stdout.write(
      [
        `Created app "${app.name}"${app.requireProof ? ' (requires appsecret_proof)' : ''}`,
        `  App id:      ${app.id}`,
        `  App secret:  ${app.secret}`,
        `  App token:   ${appAccessToken(app)}`,
        `The secret is shown only now; keep it private.`,
      ].join('\n') + '\n',
    );
  } finally {
    await store.close();
  }
}
