import { Clock } from '../clock/clock.js';
import { SUBSCRIBABLE_FIELDS } from '../webhooks/change-fields.js';
import { deliveryFilter, describeDeliveries, MAX_LISTED_DELIVERIES } from '../webhooks/delivery-view.js';
import { deliveryOf } from '../webhooks/notifications.js';
import { action, DB_JSON_OPTIONS, DB_OPTION, runAction, UsageError, valueOptions, type Action, type ActionArgs } from './args.js';
import { withStore } from './with-store.js';

export const webhooksHelp = `Usage: loom webhooks list [--json] [--db PATH|URL]
       loom webhooks deliveries [--app ID] [--status pending|delivered|failed] [--limit N] [--json] [--db PATH|URL]
       loom webhooks redeliver ID [--db PATH|URL]
       loom webhooks send-test APP OBJECT FIELD [--db PATH|URL]

"list" shows every app's webhook subscriptions: object, callback, fields and
whether it is active (a callback that failed for the whole retry span is not).
"deliveries" shows the newest notifications (default 20, at most ${MAX_LISTED_DELIVERIES}) with
their status, attempts and the callback's last answer; --json adds each body as
sent, its signature headers and every recorded attempt.
"redeliver" sends a delivery again, at once, whatever became of it.
"send-test" queues a sample notification of FIELD for APP's subscription to
OBJECT (user, page or permissions), as if that field had just changed.
A running "loom serve" on the same database sends what these queue.

Options:
  --app ID       only this app's deliveries
  --status S     only deliveries in this state
  --limit N      how many deliveries (default 20)
  --json         print JSON
  --db PATH|URL  SQLite file or postgres:// URL (default: $LOOM_DB or ./loom.db)
  -h, --help     show this help
`;

const DELIVERIES_OPTIONS = { ...DB_JSON_OPTIONS, ...valueOptions('app', 'status', 'limit') };
const ACTIONS: Readonly<Record<string, Action>> = {
  list: action(DB_JSON_OPTIONS, listCommand),
  deliveries: action(DELIVERIES_OPTIONS, deliveriesCommand),
  redeliver: action(DB_OPTION, redeliverCommand, { positionals: true }),
  'send-test': action(DB_OPTION, sendTestCommand, { positionals: true }),
};

export async function webhooksCommand(argv: string[]): Promise<void> {
  return runAction(argv, ACTIONS, webhooksHelp);
}

async function listCommand({ values }: ActionArgs<typeof DB_JSON_OPTIONS>): Promise<void> {
  const subscriptions = await withStore(values.db, (store) => store.webhooks.listSubscriptions());
  if (values.json) {
    const data = subscriptions.map((sub) => ({ app_id: String(sub.appId), object: sub.object, callback_url: sub.callbackUrl, fields: sub.fields, active: sub.active }));
    return void process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  }
  if (subscriptions.length === 0) return void process.stdout.write('No webhook subscriptions.\n');
  const lines = subscriptions.map((sub) => `${sub.appId}  ${sub.object.padEnd(11)} ${sub.active ? 'active  ' : 'inactive'}  ${sub.callbackUrl}  ${sub.fields.join(',')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function deliveriesCommand({ values }: ActionArgs<typeof DELIVERIES_OPTIONS>): Promise<void> {
  const filter = deliveryFilter({ app_id: values.app, status: values.status, limit: values.limit ?? '20' });
  if (typeof filter === 'string') throw new UsageError(filter.replace(/^(app_id|status|limit)/, (name) => `--${name === 'app_id' ? 'app' : name}`));
  const described = await withStore(values.db, async (store) => describeDeliveries(store, await store.webhooks.listDeliveries(filter)));
  if (values.json) return void process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
  if (described.length === 0) return void process.stdout.write('No deliveries.\n');
  const lines = described.map((d) => {
    const attempts = d.attempts as Array<{ status?: number; answer: string }>;
    const last = attempts.at(-1);
    const answer = last ? `${last.status ?? '-'} ${last.answer.replace(/\s+/g, ' ').slice(0, 60)}` : '';
    return `${String(d.id).padStart(6)}  ${String(d.status).padEnd(9)} app ${String(d.app_id)} ${String(d.object)} ${String(d.entry_count)} entries, ${String(d.attempt_count)} attempts  ${answer}`;
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function redeliverCommand({ values, positionals }: ActionArgs<typeof DB_OPTION>): Promise<void> {
  const [idText, ...extra] = positionals;
  if (idText === undefined || extra.length > 0 || !/^\d{1,15}$/.test(idText)) throw new UsageError('say which delivery: loom webhooks redeliver ID');
  const found = await withStore(values.db, (store) => store.webhooks.redeliver(Number(idText)));
  if (!found) throw new UsageError(`no delivery has the id ${idText}`);
  process.stdout.write(`Delivery ${idText} will be sent again\n`);
}

async function sendTestCommand({ values, positionals }: ActionArgs<typeof DB_OPTION>): Promise<void> {
  const [appText, object, field, ...extra] = positionals;
  if (appText === undefined || object === undefined || field === undefined || extra.length > 0) throw new UsageError('say loom webhooks send-test APP OBJECT FIELD');
  if (!/^\d{1,16}$/.test(appText)) throw new UsageError(`"${appText}" is not an app id`);
  const allowed = SUBSCRIBABLE_FIELDS[object];
  if (!Object.hasOwn(SUBSCRIBABLE_FIELDS, object) || !allowed) throw new UsageError('OBJECT is user, page or permissions');
  if (allowed !== 'any' && !allowed.has(field)) throw new UsageError(`${object} has no field "${field}" one can subscribe to`);
  const id = await withStore(values.db, async (store) => {
    const sub = (await store.webhooks.listSubscriptions(Number(appText))).find((candidate) => candidate.object === object);
    if (!sub) throw new UsageError(`app ${appText} has no subscription to ${object}`);
    const now = Clock.real().now();
    // A sample person: the real service's test notifications carry made-up ids too.
    const entry = { uid: '0', id: '0', time: now, changed_fields: [field] };
    await store.webhooks.queueDeliveries([deliveryOf(sub, [entry], now)], []);
    return (await store.webhooks.listDeliveries({ appId: sub.appId, limit: 1 }))[0]?.id;
  });
  process.stdout.write(`Queued test delivery ${id} to ${object} subscribers of app ${appText}\n`);
}
