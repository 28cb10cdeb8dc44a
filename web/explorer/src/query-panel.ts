/** The query being written: method, path with its query string, and extra key/value parameters. */
import { byId, h } from './dom.js';
import { METHODS, type GraphCall, type Method, type Param } from './graph-call.js';

export class QueryPanel {
  readonly method = byId('method', HTMLSelectElement);
  readonly path = byId('path', HTMLInputElement);
  private readonly rows = byId('param-rows', HTMLElement);

  constructor(run: () => void) {
    byId('query-form', HTMLFormElement).addEventListener('submit', (event) => {
      event.preventDefault();
      run();
    });
    byId('add-param', HTMLButtonElement).addEventListener('click', () => this.addRow('', '').querySelector('input')?.focus());
    this.method.addEventListener('change', () => this.describeParams());
    this.describeParams();
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

  /** Where the parameters go depends on the method: the body for POST, the query string otherwise. */
  private describeParams(): void {
    this.rows.dataset.where = this.method.value === 'POST' ? 'Sent in the request body' : 'Added to the query string';
    this.rows.classList.toggle('empty', this.rows.childElementCount === 0);
  }
}
