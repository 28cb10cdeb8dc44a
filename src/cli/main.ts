import { readFileSync } from 'node:fs';
import { SeedError } from '../seed/seed-error.js';
import { UsageError } from './args.js';
import { nearest } from './nearest.js';

interface Command {
  run: (argv: string[]) => Promise<void>;
  help: string;
}

/**
 * Each command's module is loaded only when it runs: a short command (token, app, ctl) then
 * starts without loading the server and every other command's code.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => {
    const [{ serveCommand }, { serveHelp }] = await Promise.all([import('./serve.js'), import('./serve-help.js')]);
    return { run: serveCommand, help: serveHelp };
  },
  seed: async () => import('./seed.js').then((m) => ({ run: m.seedCommand, help: m.seedHelp })),
  reseed: async () => import('./reseed.js').then((m) => ({ run: m.reseedCommand, help: m.reseedHelp })),
  token: async () => import('./token.js').then((m) => ({ run: m.tokenCommand, help: m.tokenHelp })),
  schema: async () => import('./schema.js').then((m) => ({ run: m.schemaCommand, help: m.schemaHelp })),
  app: async () => import('./app.js').then((m) => ({ run: m.appCommand, help: m.appHelp })),
  export: async () => import('./export.js').then((m) => ({ run: m.exportCommand, help: m.exportHelp })),
  import: async () => import('./import.js').then((m) => ({ run: m.importCommand, help: m.importHelp })),
  ca: async () => import('./ca.js').then((m) => ({ run: m.caCommand, help: m.caHelp })),
  ctl: async () => import('./ctl.js').then((m) => ({ run: m.ctlCommand, help: m.ctlHelp })),
  requests: async () => import('./ctl.js').then((m) => ({ run: m.requestsCommand, help: m.requestsHelp })),
  webhooks: async () => import('./webhooks.js').then((m) => ({ run: m.webhooksCommand, help: m.webhooksHelp })),
};

const mainHelp = `Usage: loom <command> [options]

Loom serves a graph of nodes, edges and fields over HTTP in the Graph API dialect.

Commands:
  serve    serve the Graph API (seeds a demo graph into an empty database)
  seed     fill an empty database with a deterministic demo graph
  reseed   start over: remove the database and media, and seed again
  token    print a fresh user access token
  schema   apply, diff or prune a declaration of your own node types
  app      register an app (prints its id and secret), list, update or delete
           apps, or give one a new secret
  export   write a database's whole graph to standard output
  import   load an exported graph into an empty database
  ca       print the path of the certificate "serve --intercept" uses, to trust it
  ctl      steer a running server: reset, snapshots, clock, faults, request journal
  requests print a running server's request journal (--follow to tail it)
  webhooks list subscriptions and deliveries, redeliver one, queue a test notification

Run "loom <command> --help" for a command's options, "loom --version" for the version.
A command's options may come before or after its arguments.

Environment:
  PORT              port of "serve" (default 8080)
  LOOM_DB           SQLite file or postgres:// URL (default ./loom.db)
  LOOM_MEDIA_DIR    where uploaded photos are kept (default: a folder of each database's
                    own, beside a SQLite file: loom.db keeps loom.db-media)
  LOOM_PUBLIC_URL   base URL of the links Loom writes
  LOOM_PROFILE_HOST host of people's profile links (default https://www.facebook.com)
  LOOM_TOKEN_LIFETIME  seconds the sign-in dialog's user tokens last (default 7200)
  LOOM_HEADER_TIMEOUT  seconds a request's line and headers may take (default 10)
  LOOM_BODY_TIMEOUT    seconds a request's body may pause between bytes (default 30)
  LOOM_MIN_BODY_RATE   bytes a second a request's body must average after 5 s (default 240)
  LOOM_ADMIN_KEY    key of the control API (serve, ctl, requests)
  LOOM_URL          the server "ctl" and "requests" talk to (default http://127.0.0.1:8080)
`;

/** The version in package.json, which ships with Loom. */
function loomVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`loom ${loomVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    process.stderr.write(`loom: ${unknownCommand(name, rest)}\n\n${mainHelp}`);
    return 2;
  }
  const command = await load();
  try {
    await command.run(rest);
    return 0;
  } catch (thrown) {
    // A graph file or a seed the user can set right is a mistake in what the command was given.
    const error = thrown instanceof SeedError ? new UsageError(thrown.message) : thrown;
    if (error instanceof UsageError) {
      process.stderr.write(`loom ${name}: ${error.message}\n${error.showUsage ? `\n${command.help}` : ''}`);
      return error.exitCode;
    }
    // A failure of what the command was given (a database, a file, a server) names it in its message.
    process.stderr.write(`loom ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** Why `name` is no command, with the one that was probably meant. */
function unknownCommand(name: string, rest: readonly string[]): string {
  const given = rest.find((argument) => Object.hasOwn(commands, argument));
  if (name.startsWith('-') && given !== undefined) return `the command comes first: loom ${given} ${name} …`;
  const meant = nearest(name, Object.keys(commands));
  return `unknown command "${name}"${meant ? `; did you mean "${meant}"?` : ''}`;
}
