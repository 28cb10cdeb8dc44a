/** The Explorer page: wires the token, query, result and history panels together. */
import { getJson, send } from './api.js';
import { PathCompletion } from './completion.js';
import { byId, h } from './dom.js';
import { API_VERSION, graphOrigins, METHODS, pathOfGraphLink, prepareCall, sharedCall, withMethodResolved, withoutSecrets, type GraphCall, type Method } from './graph-call.js';
import { isRecord } from './guards.js';
import { HistoryPanel } from './history.js';
import { MetadataCatalog } from './metadata.js';
import { QueryPanel } from './query-panel.js';
import { errorOf, ResultPanel } from './result-panel.js';
import { ServerPanel } from './server-panel.js';
import { TokenPanel } from './token-panel.js';
import { TokenSession } from './token-session.js';

const EXAMPLES = ['me', 'me?fields=id,name,friends.limit(2){name}', 'me/feed?fields=message,likes.limit(0).summary(true)&limit=3', 'me?metadata=1'];

const origin = location.origin;
/** Where links the API writes may point and still open inside the Explorer; the configured public URL joins once known. */
let ownOrigins = [origin];
const configured = getJson('/explorer/config.json').then((config) => {
  ownOrigins = graphOrigins(origin, isRecord(config) && typeof config.public_url === 'string' ? config.public_url : undefined);
});
const session = new TokenSession();
const tokenPanel = new TokenPanel(session);
const query = new QueryPanel(() => void run());
// Reads run again at once; a write from history waits for an explicit Run, so one click never posts twice.
const historyPanel = new HistoryPanel((call) => {
  query.load(call);
  if (call.method === 'GET') void run();
  else query.waitForRun(`Loaded from history, not sent: press Submit to send this ${call.method} again.`);
});
const result = new ResultPanel(
  {
    nodeHref: (id) => `/explorer?${new URLSearchParams({ path: id })}`,
    graphPath: (url) => pathOfGraphLink(url, ownOrigins),
  },
  {
    openNode: (id) => open(id),
    openPath: (path) => open(path),
    renew: () => void tokenPanel.renew(),
  },
);

const catalog = new MetadataCatalog((pathAndQuery) => {
  const token = session.current?.token;
  if (!token) return Promise.resolve(undefined);
  return getJson(`/${API_VERSION}/${pathAndQuery}&access_token=${encodeURIComponent(token)}`);
});
const completion = new PathCompletion(query.path, byId('completions', HTMLUListElement), byId('completion-hint', HTMLElement), catalog, () => session.isUsable());
session.onChange((_state, tokenChanged) => {
  if (tokenChanged) catalog.reset();
});

/** Only the newest query may fill the result panel. */
let latest = 0;

async function run(): Promise<void> {
  completion.close();
  query.clearNote();
  const typed = query.current();
  // What runs is shown as it runs: a method hidden in a parameter moves to the method box.
  const call = withMethodResolved(typed);
  if (call !== typed) query.load(call);
  const token = session.current;
  const prepared = prepareCall(call, origin, token?.token);
  const ticket = ++latest;
  result.pending();
  const answer = await send(prepared);
  await configured;
  if (ticket !== latest) return;
  result.show(answer, prepared, { withToken: token !== undefined });
  historyPanel.add(call, answer.status);
  rememberInAddress(call);
  if (token && errorOf(answer.json)?.code === 190) tokenPanel.refuse(token.token, errorOf(answer.json)!.message);
}

function open(path: string, method: Method = 'GET'): void {
  query.load({ method, path, params: [] });
  void run();
}

/** The address names the query (never the token), so it can be bookmarked or shared. */
function rememberInAddress(call: GraphCall): void {
  const clean = withoutSecrets(call);
  const search = new URLSearchParams({ path: clean.path });
  if (clean.method !== 'GET') search.set('method', clean.method);
  for (const [name, value] of clean.params) search.append(`param.${name}`, value);
  history.replaceState(null, '', `/explorer?${search}`);
}

function callFromAddress(): GraphCall | undefined {
  const search = new URLSearchParams(location.search);
  const path = search.get('path');
  if (path === null) return undefined;
  const method = (search.get('method') ?? 'GET').toUpperCase() as Method;
  const params = [...search].filter(([name]) => name.startsWith('param.')).map(([name, value]): [string, string] => [name.slice('param.'.length), value]);
  return sharedCall({ method: METHODS.includes(method) ? method : 'GET', path, params });
}

function showExamples(): void {
  byId('examples', HTMLUListElement).replaceChildren(
    ...EXAMPLES.map((path) => {
      const link = h('a', { href: `/explorer?${new URLSearchParams({ path })}`, class: 'example', 'data-path': path }, path);
      return h('li', {}, link);
    }),
  );
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void run();
  }
});
query.path.addEventListener('keydown', (event) => completion.handleKey(event));
byId('run-keys', HTMLElement).textContent = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘ ↵' : 'Ctrl ↵';

showExamples();
new ServerPanel().start();
const linked = callFromAddress();
query.load(linked ?? { method: 'GET', path: 'me?fields=id,name', params: [] });
if (linked && linked.method !== 'GET') query.waitForRun(`Opened from a link, not sent: press Submit to send this ${linked.method}.`);
// A linked read runs at once; a linked write (also one whose path asks for another method) waits for the person to send it.
void tokenPanel.init().then(() => {
  if (linked?.method === 'GET' && session.isUsable()) void run();
});
