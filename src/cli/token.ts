import { envDb } from '../config.js';
import { SHORT_LIVED_SECONDS } from '../auth/tokens.js';
import { scopedIdsFor } from '../auth/viewer.js';
import { Schema } from '../schema/registry.js';
import { redactPassword } from '../store/open-store.js';
import { parseCommandArgs, positiveInteger, UsageError } from './args.js';
import { findDemo, issueToken } from './demo.js';
import { openExistingStore } from './existing-store.js';

export const tokenHelp = `Usage: loom token [--db PATH|URL] [--user ID] [--scopes a,b] [--expires-in SECONDS] [--json]

Prints a fresh user access token for the demo app.

Options:
  --db PATH|URL           SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  --user ID               the user's id as the demo app sees it (default: the demo user)
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
    db: { type: 'string' },
    user: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in': { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) return void process.stdout.write(tokenHelp);
  const expiresIn = positiveInteger('expires-in', values['expires-in'], SHORT_LIVED_SECONDS);
  const db = values.db ?? envDb();
  const scopes = values.scopes === undefined ? Schema.default().allScopes() : knownScopes(values.scopes);
  const store = openExistingStore(db);
  try {
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
    const token = await issueToken(store, demo.app, userId, scopes, expiresIn);
    if (values.json) {
      const json = {
        access_token: token.accessToken,
        user_id: token.scopedUserId,
        app_id: String(demo.app.id),
        expires_at: token.record.expiresAt,
      };
      process.stdout.write(`${JSON.stringify(json)}\n`);
    } else {
      process.stdout.write(`${token.accessToken}\n`);
    }
  } finally {
    await store.close();
  }
}

/** The permissions of `--scopes`, each one Loom knows; a misspelt one would silently grant nothing. */
function knownScopes(text: string): string[] {
  const scopes = [...new Set(text.split(',').map((scope) => scope.trim()).filter(Boolean))];
  if (scopes.length === 0) throw new UsageError('--scopes names no permission');
  const known = new Set(Schema.default().allScopes());
  const unknown = scopes.filter((scope) => !known.has(scope));
  if (unknown.length > 0) {
    throw new UsageError(`unknown permission${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; known: ${[...known].sort().join(', ')}`);
  }
  return scopes;
}
