/** The query being written: method, path with its query string, and extra key/value parameters. */
import { byId, h } from './dom.js';
import { METHODS, type GraphCall, type Method, type Param } from './graph-call.js';

export class QueryPanel {
  readonly method = byId('method', HTMLSelectElement);
  readonly path = byId('path', HTMLInputElement);
  private readonly rows = byId('param-rows', HTMLElement);
  private readonly note = byId('query-note', HTMLElement);
  private readonly runButton = byId('run', HTMLButtonElement);

  constructor(run: () => void) {
    byId('query-form', HTMLFormElement).addEventListener('submit', (event) => {
      event.preventDefault();
      run();
    });
    byId('add-param', HTMLButtonElement).addEventListener('click', () => this.addRow('', '').querySelector('input')?.focus());
    this.method.addEventListener('change', () => this.describeParams());
    // A long path scrolled to its end would show a shorter one cut at the front (`/v2.4/` + `/feed`).
    this.path.addEventListener('blur', () => (this.path.scrollLeft = 0));
    this.describeParams();
  }

  /** The query is loaded but not sent: say so and leave the person at the Run button. */
  waitForRun(message: string): void {
    this.note.textContent = message;
    this.note.hidden = false;
    this.runButton.focus();
  }

  clearNote(): void {
    this.note.hidden = true;
    this.note.textContent = '';
  }

  current(): GraphCall {
    const params: Param[] = [...this.rows.querySelectorAll<HTMLElement>('.param-row')].map((row) => {
      const [name, value] = row.querySelectorAll('input');
      return [name?.value.trim() ?? '', value?.value ?? ''];
    });
    return { method: this.method.value as Method, path: this.path.value.trim(), params: params.filter(([name]) => name !== '') };
  }

  load(call: GraphCall): void {
    this.method.value = METHODS.includes(call.method) ? call.method : 'GET';
    this.path.value = call.path;
    this.path.scrollLeft = 0;
    this.rows.replaceChildren();
    for (const [name, value] of call.params) this.addRow(name, value);
    this.describeParams();
  }

  private addRow(name: string, value: string): HTMLElement {
    const nameInput = h('input', { type: 'text', class: 'param-name', placeholder: 'name', 'aria-label': 'Parameter name', spellcheck: 'false', autocapitalize: 'off' });
    const valueInput = h('input', { type: 'text', class: 'param-value', placeholder: 'value', 'aria-label': 'Parameter value', spellcheck: 'false' });
    nameInput.value = name;
    valueInput.value = value;
    const remove = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Remove parameter', title: 'Remove' }, '×');
    const row = h('div', { class: 'param-row' }, nameInput, valueInput, remove);
    remove.addEventListener('click', () => {
      row.remove();
      this.describeParams();
    });
    this.rows.append(row);
    this.describeParams();
    return row;
  }

  /**
   * Where the parameters go depends on the method: the body for POST, the query string
   * otherwise; rows kept across a change of method say so, rather than move silently.
   */
  private describeParams(): void {
    const where = this.method.value === 'POST' ? 'Sent in the request body' : 'Added to the query string';
    const moved = this.rows.dataset.method !== undefined && this.rows.dataset.method !== this.method.value && this.rows.childElementCount > 0;
    this.rows.dataset.where = moved ? `${where} (${this.method.value === 'POST' ? 'were in the query string' : 'were in the body'})` : where;
    this.rows.dataset.method = this.method.value;
    this.rows.classList.toggle('empty', this.rows.childElementCount === 0);
  }
}
