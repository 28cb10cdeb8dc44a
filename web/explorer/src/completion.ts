/**
 * Suggestions under the path box: the node's edges after `me/`, parameter names after `?`, and in
 * `fields=` the field and edge names of whatever level the caret is at (top level, inside braces,
 * inside `.fields(`), or the modifiers after `edge.`.
 */
import { completionContext, type CompletionContext, type Span } from './completion-context.js';
import { h } from './dom.js';
import type { MetadataCatalog, TypeInfo } from './metadata.js';

interface Suggestion {
  label: string;
  insert: string;
  detail: string;
  description?: string;
  span: Span;
}

const PARAMS: ReadonlyArray<[insert: string, description: string]> = [
  ['fields=', 'Fields and edges to return, nested with {…} or .fields(…)'],
  ['metadata=1', 'Describe the node: its type, fields and edges'],
  ['limit=', 'Items per page'],
  ['summary=true', 'Add the total count of the collection'],
  ['since=', 'Only items from this UNIX time on'],
  ['until=', 'Only items up to this UNIX time'],
  ['after=', 'The page after this cursor'],
  ['before=', 'The page before this cursor'],
];

const MODIFIERS: ReadonlyArray<[insert: string, description: string]> = [
  ['limit(', 'Items per page of this edge'],
  ['fields(', 'Fields of the items, like {…}'],
  ['summary(true)', 'Add the total count'],
  ['since(', 'Only items from this UNIX time on'],
  ['until(', 'Only items up to this UNIX time'],
  ['after(', 'The page after this cursor'],
  ['before(', 'The page before this cursor'],
];

/** More suggestions than fit a screen are no help; typing narrows them down. */
const MAX_SHOWN = 80;

export class PathCompletion {
  private suggestions: Suggestion[] = [];
  private active = -1;
  /** Only the newest lookup may show its suggestions. */
  private lookup = 0;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly list: HTMLUListElement,
    private readonly hint: HTMLElement,
    private readonly catalog: MetadataCatalog,
    private readonly hasToken: () => boolean,
  ) {
    input.addEventListener('input', () => void this.update());
    input.addEventListener('click', () => void this.update());
    input.addEventListener('focus', () => void this.update());
    input.addEventListener('blur', () => this.close());
    input.addEventListener('keyup', (event) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) void this.update();
    });
    // Choosing with the mouse must not blur the input first.
    list.addEventListener('mousedown', (event) => event.preventDefault());
    list.addEventListener('click', (event) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (item) this.accept(Number(item.dataset.index));
    });
  }

  get isOpen(): boolean {
    return !this.list.hidden;
  }

  /**
   * Arrow keys, Enter, Tab and Escape while suggestions show; true when the key was used. Nothing
   * is highlighted until an arrow key says so: until then Enter runs the query and Tab moves on.
   */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const count = this.suggestions.length;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.highlight(this.active === -1 ? (step === 1 ? 0 : count - 1) : (this.active + step + count) % count);
    } else if ((event.key === 'Enter' || event.key === 'Tab') && this.active >= 0) {
      this.accept(this.active);
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  }

  close(): void {
    this.lookup++;
    this.list.hidden = true;
    this.list.replaceChildren();
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    this.suggestions = [];
    this.active = -1;
  }

  async update(): Promise<void> {
    const lookup = ++this.lookup;
    const caret = this.input.selectionStart ?? this.input.value.length;
    const context = this.input.selectionEnd === caret ? completionContext(this.input.value, caret) : undefined;
    const found = context ? await this.suggest(context) : { suggestions: [], heading: '', hint: '' };
    if (lookup !== this.lookup || document.activeElement !== this.input) return;
    this.hint.textContent = found.hint;
    this.show(found.suggestions, found.heading);
  }

  private async suggest(context: CompletionContext): Promise<{ suggestions: Suggestion[]; heading: string; hint: string }> {
    const none = (hint = '') => ({ suggestions: [], heading: '', hint });
    const named = (entries: ReadonlyArray<[string, string]>, detail: string) =>
      entries
        .filter(([insert]) => insert.startsWith(context.prefix) && insert !== context.prefix)
        .map(([insert, description]) => ({ label: insert, insert, detail, description, span: context }));

    switch (context.kind) {
      case 'node':
        return { suggestions: named([['me', 'The user the token belongs to']], 'node'), heading: 'Nodes', hint: '' };
      case 'param':
        return { suggestions: named(PARAMS, 'parameter'), heading: 'Parameters', hint: '' };
      case 'edge': {
        if (!this.hasToken()) return none('Get a token to see the edges of this node.');
        const type = await this.catalog.typeAt(context.node, []);
        if (!type) return none(`No node "${context.node}" to suggest edges of.`);
        return { suggestions: this.names(type, context, false), heading: `Edges of ${type.type}`, hint: '' };
      }
      case 'field':
      case 'modifier': {
        if (!this.hasToken()) return none('Get a token to see suggestions for fields and edges.');
        const type = await this.catalog.typeAt(context.node, context.edges);
        if (!type) {
          const edge = context.edges[context.edges.length - 1];
          return none(edge ? `No items on ${edge} to learn their fields from.` : `No node "${context.node}" to suggest fields of.`);
        }
        if (context.kind === 'field') return { suggestions: this.names(type, context, true), heading: `Fields and edges of ${type.type}`, hint: '' };
        const modifiers = type.edges.includes(context.owner) ? named(MODIFIERS, 'modifier') : [];
        const dotted = context.dotted ? this.names(type, context.dotted, true) : [];
        return { suggestions: [...modifiers, ...dotted], heading: `Modifiers of ${context.owner}`, hint: '' };
      }
    }
  }

  /** The type's fields (with their types) and edges whose names start with what is typed. */
  private names(type: TypeInfo, span: Span, withFields: boolean): Suggestion[] {
    const matches = (name: string) => name.startsWith(span.prefix) && name !== span.prefix;
    const fields = withFields
      ? type.fields.filter((field) => matches(field.name)).map((field) => ({ label: field.name, insert: field.name, detail: field.type, description: field.description, span }))
      : [];
    const edges = type.edges.filter(matches).map((edge) => ({ label: edge, insert: edge, detail: 'edge', span }));
    return [...fields, ...edges].sort((a, b) => a.label.localeCompare(b.label));
  }

  private show(suggestions: Suggestion[], heading: string): void {
    this.suggestions = suggestions.slice(0, MAX_SHOWN);
    this.active = -1;
    this.input.removeAttribute('aria-activedescendant');
    if (this.suggestions.length === 0) {
      this.list.hidden = true;
      this.list.replaceChildren();
      this.input.setAttribute('aria-expanded', 'false');
      return;
    }
    this.list.replaceChildren(
      h('li', { class: 'completion-heading', role: 'presentation' }, heading),
      ...this.suggestions.map((suggestion, index) =>
        h(
          'li',
          { id: `completion-${index}`, role: 'option', 'aria-selected': 'false', 'data-index': String(index), title: suggestion.description },
          h('span', { class: 'completion-name' }, suggestion.label),
          h('span', { class: 'completion-detail' }, suggestion.detail),
          suggestion.description ? h('span', { class: 'completion-description' }, suggestion.description) : null,
        ),
      ),
    );
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  private highlight(index: number): void {
    const options = this.list.querySelectorAll<HTMLElement>('[role="option"]');
    options.forEach((option, at) => option.setAttribute('aria-selected', String(at === index)));
    this.active = index;
    const option = options[index];
    if (option) {
      this.input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    }
  }

  private accept(index: number): void {
    const suggestion = this.suggestions[index];
    if (!suggestion) return;
    this.input.setRangeText(suggestion.insert, suggestion.span.from, suggestion.span.to, 'end');
    this.close();
    this.input.dispatchEvent(new Event('input'));
  }
}
