/** Recent queries, kept in this browser (never with a token), each one click away from running again. */
import { byId, h } from './dom.js';
import { METHODS, withoutSecrets, type GraphCall, type Method } from './graph-call.js';
import { isRecord, isStringList } from './guards.js';
import { readStored, writeStored } from './storage.js';

export interface HistoryEntry extends GraphCall {
  status: number;
  /** Milliseconds since the epoch. */
  at: number;
}

const KEY = 'loom.explorer.history';
const MAX_ENTRIES = 40;

function isEntry(value: unknown): value is HistoryEntry {
  return (
    isRecord(value) &&
    METHODS.includes(value.method as Method) &&
    typeof value.path === 'string' &&
    Array.isArray(value.params) &&
    value.params.every((param) => isStringList(param) && param.length === 2) &&
    typeof value.status === 'number' &&
    typeof value.at === 'number'
  );
}

const isEntryList = (value: unknown): value is HistoryEntry[] => Array.isArray(value) && value.every(isEntry);

export class HistoryPanel {
  // Cleaned again on load: entries kept before a credential's name was known to be one lose it now.
  private entries: HistoryEntry[] = (readStored(localStorage, KEY, isEntryList) ?? []).map((entry) => ({ ...entry, ...withoutSecrets(entry) }));
  private readonly list = byId('history', HTMLOListElement);
  private readonly empty = byId('history-empty', HTMLElement);

  constructor(private readonly run: (call: GraphCall) => void) {
    byId('clear-history', HTMLButtonElement).addEventListener('click', () => this.save([]));
    this.list.addEventListener('click', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-index]');
      const entry = item ? this.entries[Number(item.dataset.index)] : undefined;
      if (entry) this.run({ method: entry.method, path: entry.path, params: entry.params });
    });
    this.save(this.entries);
  }

  /** Records a query that ran; the same query again moves to the top instead of repeating. */
  add(call: GraphCall, status: number): void {
    const clean = withoutSecrets(call);
    const same = (entry: HistoryEntry) =>
      entry.method === clean.method && entry.path === clean.path && JSON.stringify(entry.params) === JSON.stringify(clean.params);
    this.save([{ ...clean, status, at: Date.now() }, ...this.entries.filter((entry) => !same(entry))].slice(0, MAX_ENTRIES));
  }

  private save(entries: HistoryEntry[]): void {
    this.entries = entries;
    writeStored(localStorage, KEY, entries);
    this.render();
  }

  private render(): void {
    this.empty.hidden = this.entries.length > 0;
    this.list.replaceChildren(
      ...this.entries.map((entry, index) => {
        const params = entry.params.map(([name, value]) => `${name}=${value}`).join(' ');
        return h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'history-item', 'data-index': String(index), title: `${entry.method} ${entry.path}${params ? ` ${params}` : ''}` },
            h('span', { class: `method ${entry.method.toLowerCase()}` }, entry.method),
            h('span', { class: 'history-path' }, entry.path || '/'),
            h('span', { class: `history-status ${entry.status >= 200 && entry.status < 400 ? 'ok' : 'failed'}` }, entry.status ? String(entry.status) : '—'),
          ),
        );
      }),
    );
  }
}
