/** The answer of the last query: status, time, trace id, the error if any, the tree or raw text. */
import type { Answer } from './api.js';
import { byId, copyWithFeedback, h } from './dom.js';
import { curlCommand, type PreparedCall } from './graph-call.js';
import { pagerFor, renderTree, type TreeLinks } from './json-tree.js';
import { readStored, writeStored } from './storage.js';

export interface ResultActions {
  /** Open a node by id (an id link was clicked). */
  openNode(id: string): void;
  /** Run a GET of this path (a paging button or a Graph link was clicked). */
  openPath(path: string): void;
  /** The token failed (code 190): get a new one. */
  renew(): void;
}

export interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  fbtrace_id?: string;
}

type View = 'tree' | 'raw' | 'headers';
const VIEWS: readonly View[] = ['tree', 'raw', 'headers'];
const VIEW_KEY = 'loom.explorer.view';

export class ResultPanel {
  private readonly status = byId('status', HTMLElement);
  private readonly elapsed = byId('elapsed', HTMLElement);
  private readonly trace = byId('trace', HTMLElement);
  private readonly welcome = byId('welcome', HTMLElement);
  private readonly errorCard = byId('error-card', HTMLElement);
  private readonly rootPager = byId('root-pager', HTMLElement);
  private readonly tree = byId('tree', HTMLElement);
  private readonly raw = byId('raw', HTMLElement);
  private readonly headers = byId('headers', HTMLElement);
  private readonly body = byId('result-body', HTMLElement);
  private readonly panel = byId('result-panel', HTMLElement);
  private readonly viewButtons = new Map(VIEWS.map((view) => [view, byId(`view-${view}`, HTMLButtonElement)]));
  private readonly curlButton = byId('copy-curl', HTMLButtonElement);
  private view: View = readStored(localStorage, VIEW_KEY, (value): value is View => VIEWS.includes(value as View)) ?? 'tree';
  private prepared: PreparedCall | undefined;
  private hasAnswer = false;

  constructor(
    private readonly links: TreeLinks,
    private readonly actions: ResultActions,
  ) {
    for (const [view, button] of this.viewButtons) button.addEventListener('click', () => this.setView(view));
    this.curlButton.addEventListener('click', () => {
      if (this.prepared) void copyWithFeedback(this.curlButton, curlCommand(this.prepared));
    });
    this.body.addEventListener('click', (event) => this.follow(event));
    this.setView(this.view);
  }

  /** A query is on its way. */
  pending(): void {
    this.status.className = 'status pending';
    this.status.textContent = 'Running…';
    this.elapsed.textContent = '';
    this.trace.textContent = '';
  }

  show(answer: Answer, prepared: PreparedCall, { withToken }: { withToken: boolean }): void {
    this.prepared = prepared;
    this.hasAnswer = true;
    this.curlButton.disabled = false;
    this.welcome.hidden = true;

    const failed = answer.status === 0 || answer.status >= 400;
    this.status.className = `status ${failed ? 'failed' : 'ok'}`;
    this.status.textContent = answer.status === 0 ? 'No answer' : `${answer.status} ${answer.statusText}`.trim();
    this.elapsed.textContent = `${Math.round(answer.ms)} ms`;
    this.trace.textContent = answer.traceId ? `trace ${answer.traceId}` : '';
    this.trace.title = answer.traceId ? 'The x-fb-trace-id header; the server logs it with the request' : '';

    this.showError(answer, withToken);
    const pager = pagerFor(answer.json, this.links);
    this.rootPager.replaceChildren(...(pager ? [pager] : []));
    this.rootPager.hidden = !pager;
    this.tree.replaceChildren(answer.json === undefined ? h('pre', { class: 'raw-text' }, answer.text) : renderTree(answer.json, this.links));
    this.raw.textContent = answer.json === undefined ? answer.text : JSON.stringify(answer.json, null, 2);
    this.headers.replaceChildren(...answer.headers.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]));
    this.setView(this.view);
    // A new answer (the next page, say) starts at its top, with the panel's head in sight.
    this.body.scrollTop = 0;
    if (this.panel.getBoundingClientRect().top < 0) this.panel.scrollIntoView({ block: 'start' });
  }

  private showError(answer: Answer, withToken: boolean): void {
    const error = errorOf(answer.json);
    if (answer.networkError) {
      this.errorCard.replaceChildren(h('p', { class: 'error-title' }, 'The server did not answer'), h('p', { class: 'error-message' }, answer.networkError));
    } else if (error) {
      const facts = [`code ${error.code}`, error.error_subcode !== undefined ? `subcode ${error.error_subcode}` : ''].filter(Boolean);
      this.errorCard.replaceChildren(
        h('p', { class: 'error-title' }, h('span', { class: 'error-type' }, error.type), ...facts.map((fact) => h('span', { class: 'error-code' }, fact))),
        h('p', { class: 'error-message' }, error.message),
      );
      if (!withToken) {
        this.errorCard.append(h('p', { class: 'error-action' }, 'This query went without an access token: get a token first in the Access token panel (Get token).'));
      } else if (error.code === 190) {
        const renew = h('button', { type: 'button', class: 'primary small' }, 'Renew token');
        renew.addEventListener('click', () => this.actions.renew());
        this.errorCard.append(h('p', { class: 'error-action' }, 'The token is no longer valid. ', renew));
      }
    }
    this.errorCard.hidden = !(answer.networkError || error);
  }

  private setView(view: View): void {
    this.view = view;
    writeStored(localStorage, VIEW_KEY, view);
    for (const [each, button] of this.viewButtons) button.setAttribute('aria-pressed', String(view === each));
    this.tree.hidden = !this.hasAnswer || view !== 'tree';
    this.raw.hidden = !this.hasAnswer || view !== 'raw';
    this.headers.hidden = !this.hasAnswer || view !== 'headers';
  }

  /** Id links, Graph links and paging buttons open inside the Explorer; a modified click opens a tab. */
  private follow(event: MouseEvent): void {
    const target = (event.target as Element).closest<HTMLElement>('[data-id], [data-path]');
    if (!target) return;
    if (target instanceof HTMLAnchorElement && target.dataset.id && (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0)) return;
    event.preventDefault();
    if (target.dataset.id) this.actions.openNode(target.dataset.id);
    else if (target.dataset.path !== undefined) this.actions.openPath(target.dataset.path);
  }
}

export function errorOf(body: unknown): GraphErrorBody | undefined {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  const { message, type, code } = error as Record<string, unknown>;
  return typeof message === 'string' && typeof code === 'number' ? { ...(error as GraphErrorBody), type: typeof type === 'string' ? type : 'Error' } : undefined;
}
