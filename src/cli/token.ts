import { envDb } from '../config.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { Schema } from '../schema/registry.js';
import { redactPassword } from '../store/redact-password.js';
import { flagOptions, parseCommandArgs, positiveInteger, UsageError, valueOptions } from './args.js';
import { findDemo } from '../seed/demo-app.js';
import { issueToken } from './demo.js';
import { openExistingStore } from './existing-store.js';
import { explain } from './schema.js';
import { loadAppliedSchema } from '../declared/applied.js';
import type { Store } from '../store/store.js';
import type { AppRecord } from '../store/auth-store.js';
import { graphSchema } from '../graph/graph-schema.js';

export const tokenHelp = `Usage: loom token [--db PATH|URL] [--user ID | --principal KEY] [--scopes a,b] [--expires-in SECONDS] [--json]

Prints a fresh user access token for the demo app, or, on a database with an applied
schema, for the schema's app.

Options:
  --db PATH|URL           SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  --user ID               the user's id as the demo app sees it (default: the demo user)
  --principal KEY         with an applied schema: the principal node (a member, say)
                          with this key of yours, as imported
  --scopes a,b            permissions the token carries (default: every permission)
  --expires-in SECONDS    lifetime (default: ${SHORT_LIVED_SECONDS}, two hours)
  --json                  print {"access_token","user_id","app_id","expires_at"}
  -h, --help              show this help

Example:
  export TOKEN=$(bin/loom token)
  curl "http://localhost:8080/v2.4/me?access_token=$TOKEN"
`;

export async function tokenCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...valueOptions('db', 'user', 'scopes', 'expires-in', 'principal'),
    ...flagOptions('json'),
  });
  if (values.help) return void process.stdout.write(tokenHelp);
  const expiresIn = positiveInteger('expires-in', values['expires-in'], SHORT_LIVED_SECONDS);
  const db = values.db ?? envDb();
  const store = openExistingStore(db);
  try {
    const declared = await explain(() => loadAppliedSchema(store));
    const schema = declared?.schema ?? graphSchema();
    const scopes = values.scopes === undefined ? schema.allScopes() : knownScopes(schema, values.scopes);
    if (declared) return await printToken(await principalToken(store, declared, values.principal, scopes, expiresIn), values.json === true);
    if (values.principal !== undefined) throw new UsageError(`${redactPassword(db)} has no applied schema; --principal names a node of one (bin/loom schema apply FILE --db ${redactPassword(db)})`);
    const demo = await findDemo(store);
    const shown = redactPassword(db);
    if (!demo) throw new UsageError(`${shown} holds no demo graph; run "loom seed --db ${shown}" or "loom serve" first`);
    let userId = demo.user.id;
    if (values.user !== undefined) {
      const internal = scopedIdsFor(demo.app).unscope(values.user);
      const user = internal === undefined ? undefined : (await store.getObjects([internal])).get(internal);
      if (!user || user.type !== 'user') throw new UsageError(`no user with id ${values.user} in the demo app`);
      userId = user.id;
    }
    await printToken({ app: demo.app, token: await issueToken(store, schema.permissions, demo.app, userId, scopes, expiresIn) }, values.json === true);
  } finally {
    await store.close();
  }
}

async function printToken({ app, token }: { app: AppRecord; token: Awaited<ReturnType<typeof issueToken>> }, json: boolean): Promise<void> {
  if (!json) return void process.stdout.write(`${token.accessToken}\n`);
  const line = { access_token: token.accessToken, user_id: token.scopedUserId, app_id: String(app.id), expires_at: token.record.expiresAt };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** A token of the schema's own app for the principal node the team's key names. */
async function principalToken(
  store: Store,
  declared: NonNullable<Awaited<ReturnType<typeof loadAppliedSchema>>>,
  key: string | undefined,
  scopes: readonly string[],
  expiresIn: number,
): Promise<{ app: AppRecord; token: Awaited<ReturnType<typeof issueToken>> }> {
  const principal = declared.schema.principal;
  if (key === undefined) throw new UsageError(`name the ${principal} the token stands for: --principal KEY`);
  const app = (await store.getApps([declared.applied.appId])).get(declared.applied.appId);
  if (!app) throw new UsageError(`the app of schema ${declared.applied.name} (id ${declared.applied.appId}) no longer exists`);
  const id = (await store.findDeclaredIds(principal, [key])).get(key);
  const node = id === undefined ? undefined : (await store.getObjects([id])).get(id);
  if (!node || node.type !== principal) throw new UsageError(`no ${principal} has the key "${key}" (import it with bin/loom import --data)`);
  return { app, token: await issueToken(store, declared.schema.permissions, app, node.id, scopes, expiresIn) };
}

/** The permissions of `--scopes`, each one Loom knows; a misspelt one would silently grant nothing. */
function knownScopes(schema: Schema, text: string): string[] {
  const scopes = [...new Set(text.split(',').map((scope) => scope.trim()).filter(Boolean))];
  if (scopes.length === 0) throw new UsageError('--scopes names no permission');
  const known = new Set(schema.allScopes());
  const unknown = scopes.filter((scope) => !known.has(scope));
  if (unknown.length > 0) {
    throw new UsageError(`unknown permission${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; known: ${[...known].sort().join(', ')}`);
  }
  return scopes;
}
