/**
 * What the test control plane says about the server, where a person looks while querying: its
 * clock (when moved or frozen) and active faults in the top bar, and the request journal, live,
 * in the Requests panel.
 * The control API answers only the server's own machine (or an admin key); elsewhere the panel
 * says so and stays quiet.
 */
import { getJson } from './api.js';
import { byId, h } from './dom.js';
import { formatDuration } from './durations.js';
import { isRecord } from './guards.js';

interface JournalEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  error_code?: number;
  error_subcode?: number;
  duration_ms: number;
  in_batch?: boolean;
}

/** How often the panel asks for what changed while the page is in view. */
const POLL_MS = 2000;
const MAX_ROWS = 50;

function isEntry(value: unknown): value is JournalEntry {
  return isRecord(value) && typeof value.seq === 'number' && typeof value.path === 'string' && typeof value.status === 'number';
}

export class ServerPanel {
  private readonly clock = byId('server-clock', HTMLElement);
  private readonly faults = byId('server-faults', HTMLElement);
  private readonly list = byId('requests', HTMLOListElement);
  private readonly note = byId('requests-note', HTMLElement);
  private entries: JournalEntry[] = [];
  private last = 0;

  constructor() {
    byId('clear-requests', HTMLButtonElement).addEventListener('click', () => void this.clear());
  }

  /** Starts polling; a refusal (another machine, no key) stops it for good. */
  start(): void {
    const tick = async () => {
      if (document.visibilityState === 'visible' && !(await this.refresh())) return;
      setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
  }

  /** Reads the clock, faults and new journal entries; false when the control API is out of reach. */
  async refresh(): Promise<boolean> {
    const [clock, faults, requests] = await Promise.all([
      getJson('/_loom/clock'),
      getJson('/_loom/faults'),
      getJson(`/_loom/requests?since=${this.last}&limit=${MAX_ROWS}`),
    ]);
    if (!isRecord(clock) || !isRecord(faults) || !isRecord(requests) || !Array.isArray(requests.data)) {
      this.note.textContent = 'The control API answers only the machine Loom runs on.';
      this.note.hidden = false;
      this.clock.hidden = true;
      this.faults.hidden = true;
      return false;
    }
    this.showClock(clock);
    this.showFaults(Array.isArray(faults.data) ? faults.data.length : 0);
    const fresh = requests.data.filter(isEntry);
    // A journal cleared (or a server restarted) numbers from 1 again.
    if (fresh.length > 0 && fresh[0]!.seq <= this.last) this.entries = [];
    if (fresh.length > 0) {
      this.entries = [...fresh.reverse(), ...this.entries].slice(0, MAX_ROWS);
      this.last = this.entries[0]!.seq;
      this.render();
    }
    return true;
  }

  /** Shows the clock only when it is not real time: frozen, or running ahead or behind. */
  private showClock(clock: Record<string, unknown>): void {
    const frozen = clock.frozen === true;
    const offset = typeof clock.offset === 'number' ? clock.offset : 0;
    this.clock.hidden = !frozen && offset === 0;
    const how = frozen ? 'frozen' : `${formatDuration(Math.abs(offset) * 1000)} ${offset > 0 ? 'ahead' : 'behind'}`;
    // The label gives way on a narrow screen, where the time and why it is shown must fit beside the faults.
    this.clock.replaceChildren(h('span', { class: 'clock-label' }, 'Server time '), `${String(clock.now)} (${how})`);
  }

  private showFaults(count: number): void {
    this.faults.hidden = count === 0;
    this.faults.textContent = count === 1 ? '1 fault active' : `${count} faults active`;
  }

  private async clear(): Promise<void> {
    await fetch('/_loom/requests', { method: 'DELETE', credentials: 'omit' });
    this.entries = [];
    this.last = 0;
    this.render();
  }

  private render(): void {
    this.note.hidden = this.entries.length > 0;
    if (this.entries.length === 0) this.note.textContent = 'Requests to the Graph API, from any client, appear here as they arrive.';
    this.list.replaceChildren(...this.entries.map(requestRow));
  }
}

/** `/me?fields=id,name` over `code 2500 · 2 ms · 04:48:38`; the journal has redacted every credential. */
function requestRow(entry: JournalEntry): HTMLLIElement {
  const query = Object.entries(entry.params)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const asked = query ? `${entry.path}?${query}` : entry.path;
  const facts = [
    ...(entry.error_code === undefined ? [] : [`code ${entry.error_code}`]),
    ...(entry.error_subcode === undefined ? [] : [`subcode ${entry.error_subcode}`]),
    `${entry.duration_ms} ms`,
    entry.time.slice(11, 19),
    ...(entry.in_batch ? ['in a batch'] : []),
  ];
  return h(
    'li',
    { class: 'request', 'data-seq': String(entry.seq) },
    h('span', { class: `request-status ${entry.status < 400 ? 'ok' : 'failed'}` }, String(entry.status)),
    h('span', { class: 'request-method' }, entry.method),
    h('span', { class: 'request-path', title: asked }, entry.path, query ? h('span', { class: 'request-query' }, `?${query}`) : null),
    h('span', { class: 'request-meta' }, facts.join(' · ')),
  );
}
