import { DEFAULT_PORT, envValue } from '../config.js';
import { ControlClient, type JournalItem } from '../control/control-client.js';
import { flagOptions, parseCommandArgs, splitAction, UsageError, valueOptions } from './args.js';

export const ctlHelp = `Usage: loom ctl <call> [options] [--url URL] [--admin-key KEY]

Steers a running Loom through its control API (/_loom/) and prints the answer as JSON.

Calls:
  reset                      back to the graph, clock and faults the server started with
  snapshot NAME              save the graph under NAME
  snapshots                  list the saved snapshots
  restore NAME               put the graph back as snapshot NAME holds it
  delete-snapshot NAME       delete snapshot NAME
  clock                      show the server's time
  clock --now TIME           stop the clock at TIME (Unix seconds or 2026-01-01T00:00:00+0000)
  clock --advance DURATION   move the clock on (90, 90s, 15m, 2h, 1d, 1h30m)
  clock --real               back to real time
  fault [match] [effect]     add a fault; prints its id
      match:  --method GET|POST|DELETE  --path GLOB (e.g. /me/friends, /me/*)
              --app-id ID  --user-id ID
      effect: --preset NAME (app_rate_limit, user_rate_limit, page_rate_limit,
              api_rate_limit, feed_rate_limit, server_error, temporarily_unavailable,
              expired_session, invalidated_session, permission_denied)
              or --code N [--subcode N] [--status N] [--message TEXT] [--transient]
              --delay-ms N  --times N  --probability P
  faults                     list the faults, with how often each fired
  clear-faults [ID]          delete one fault, or all
  requests [--limit N] [--since SEQ] [--app-id ID] [--status N]
                             the request journal
  clear-requests             empty the request journal

Options:
  --url URL        the server (default: $LOOM_URL, else http://127.0.0.1:$PORT or :${DEFAULT_PORT})
  --admin-key KEY  the server's admin key (default: $LOOM_ADMIN_KEY)
  -h, --help       show this help
`;

export const requestsHelp = `Usage: loom requests [--follow] [--json] [--limit N] [--app-id ID] [--status N] [--url URL] [--admin-key KEY]

Prints the request journal of a running Loom, one line per request: time, method,
path, status, error code, duration, app and user (tokens and secrets redacted).

Options:
  --follow         keep printing requests as they arrive (stop with Ctrl-C)
  --json           print each request as a line of JSON
  --limit N        start with the last N requests (default: 20)
  --app-id ID      only the requests of app ID
  --status N       only the requests answered with status N
  --url URL        the server (default: $LOOM_URL, else http://127.0.0.1:$PORT or :${DEFAULT_PORT})
  --admin-key KEY  the server's admin key (default: $LOOM_ADMIN_KEY)
  -h, --help       show this help
`;

const SERVER_OPTIONS = valueOptions('url', 'admin-key');

function client(values: { url?: string | undefined; 'admin-key'?: string | undefined }): ControlClient {
  const envUrl = envValue('LOOM_URL');
  const [source, url] =
    values.url !== undefined ? ['--url', values.url] : envUrl !== undefined ? ['LOOM_URL', envUrl] : ['PORT', `http://127.0.0.1:${envValue('PORT') ?? DEFAULT_PORT}`];
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`${source} must be the http:// or https:// address of a Loom server, such as http://127.0.0.1:8080, not "${url}"`);
  return new ControlClient(url, values['admin-key'] ?? envValue('LOOM_ADMIN_KEY'));
}

const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** The calls, and how many names each takes: at least, at most. */
const CALLS: Readonly<Record<string, readonly [number, number]>> = {
  reset: [0, 0],
  snapshot: [1, 1],
  snapshots: [0, 0],
  restore: [1, 1],
  'delete-snapshot': [1, 1],
  clock: [0, 0],
  fault: [0, 0],
  faults: [0, 0],
  'clear-faults': [0, 1],
  requests: [0, 0],
  'clear-requests': [0, 0],
};

export async function ctlCommand(argv: string[]): Promise<void> {
  const { action: call, rest } = splitAction(argv, Object.fromEntries(Object.keys(CALLS).map((name) => [name, CTL_OPTIONS])), 'call');
  if (call === undefined) return void process.stdout.write(ctlHelp);
  const { values, positionals } = parseCommandArgs(rest, CTL_OPTIONS, { positionals: true });
  if (values.help) return void process.stdout.write(ctlHelp);
  const [least, most] = CALLS[call]!;
  if (positionals.length < least || positionals.length > most) {
    throw new UsageError(most === 0 ? `"${call}" takes no name, not "${positionals.join(' ')}"` : least === most ? `"${call}" takes one name` : `"${call}" takes at most one id`);
  }
  const control = client(values);
  const name = () => positionals[0]!;
  switch (call) {
    case 'reset':
      return print(await control.reset());
    case 'snapshot':
      return print(await control.snapshot(name()));
    case 'snapshots':
      return print(await control.call('GET', '/snapshots'));
    case 'restore':
      return print(await control.restore(name()));
    case 'delete-snapshot':
      return print(await control.call('DELETE', `/snapshots/${encodeURIComponent(name())}`));
    case 'clock':
      if (values.now !== undefined) return print(await control.clock.set(/^\d+$/.test(values.now) ? Number(values.now) : values.now));
      if (values.advance !== undefined) return print(await control.clock.advance(values.advance));
      if (values.real) return print(await control.clock.real());
      return print(await control.clock.get());
    case 'fault':
      return print(await control.faults.add(faultFrom(values)));
    case 'faults':
      return print(await control.faults.list());
    case 'clear-faults':
      return print(await control.faults.clear(positionals[0]));
    case 'requests':
      return print(await control.requests.list(journalFilter(values)));
    case 'clear-requests':
      return print(await control.requests.clear());
  }
}

const CTL_OPTIONS = {
  ...SERVER_OPTIONS,
  ...valueOptions('now', 'advance'),
  ...flagOptions('real'),
  ...valueOptions('method', 'path', 'app-id', 'user-id', 'preset', 'code', 'subcode', 'status', 'message'),
  ...flagOptions('transient'),
  ...valueOptions('delay-ms', 'times', 'probability', 'limit', 'since'),
} as const;

type CtlValues = ReturnType<typeof parseCommandArgs<typeof CTL_OPTIONS>>['values'];

function number(name: string, value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number, not "${value}"`);
  return parsed;
}

function faultFrom(values: CtlValues): Record<string, unknown> {
  const match = givenFields(values, { method: 'method', path: 'path', 'app-id': 'app_id', 'user-id': 'user_id' });
  const fault: Record<string, unknown> = { match };
  if (values.preset !== undefined) fault.preset = values.preset;
  if (values.code !== undefined) {
    const error: Record<string, unknown> = { code: number('code', values.code) };
    if (values.subcode !== undefined) error.error_subcode = number('subcode', values.subcode);
    if (values.status !== undefined) error.status = number('status', values.status);
    if (values.message !== undefined) error.message = values.message;
    if (values.transient) error.is_transient = true;
    fault.error = error;
  }
  if (values['delay-ms'] !== undefined) fault.delay_ms = number('delay-ms', values['delay-ms']);
  if (values.times !== undefined) fault.times = number('times', values.times);
  if (values.probability !== undefined) fault.probability = number('probability', values.probability);
  return fault;
}

function journalFilter(values: CtlValues): Record<string, string> {
  return givenFields(values, { limit: 'limit', since: 'since', 'app-id': 'app_id', status: 'status' });
}

/** The string options among `fields` that were given, each under its field's name (option: field). */
function givenFields<V extends Record<string, unknown>>(values: V, fields: Partial<Record<keyof V & string, string>>): Record<string, string> {
  const given: Record<string, string> = {};
  for (const [option, field] of Object.entries(fields)) {
    const value = values[option];
    if (typeof value === 'string' && field !== undefined) given[field] = value;
  }
  return given;
}

/** How often `requests --follow` asks for new entries. */
const FOLLOW_INTERVAL_MS = 500;

export async function requestsCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...SERVER_OPTIONS,
    ...flagOptions('follow', 'json'),
    ...valueOptions('limit', 'app-id', 'status'),
  });
  if (values.help) return void process.stdout.write(requestsHelp);
  const control = client(values);
  const filter = { limit: values.limit ?? '20', ...givenFields(values, { 'app-id': 'app_id', status: 'status' }) };
  const show = (entry: JournalItem) => process.stdout.write(`${values.json ? JSON.stringify(entry) : describe(entry)}\n`);
  const first = await control.requests.list(filter);
  first.forEach(show);
  if (!values.follow) return;
  const newest = async () => (await control.requests.list({ limit: '1' }))[0]?.seq ?? 0;
  let last = first.at(-1)?.seq ?? (await newest());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS));
    const entries = await control.requests.list({ ...filter, limit: '1000', since: String(last) });
    entries.forEach(show);
    // A journal cleared, or a server restarted, counts from 1 again.
    last = entries.at(-1)?.seq ?? ((await newest()) < last ? 0 : last);
  }
}

function describe(entry: JournalItem): string {
  const error = entry.error_code === undefined ? '' : ` #${entry.error_code}${entry.error_subcode === undefined ? '' : `/${entry.error_subcode}`}`;
  const who = [entry.app_id && `app ${entry.app_id}`, entry.user_id && `user ${entry.user_id}`].filter(Boolean).join(' ');
  const params = Object.entries(entry.params).map(([key, value]) => `${key}=${value}`).join('&');
  return `${entry.time} ${entry.method} ${entry.path}${params ? `?${params}` : ''} → ${entry.status}${error} ${entry.duration_ms}ms${who ? ` ${who}` : ''}${entry.in_batch ? ' (in batch)' : ''}`;
}
