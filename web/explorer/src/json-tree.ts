/**
 * A JSON answer as a collapsible, coloured tree. Ids are links that open their node, links to
 * Graph paths open inside the Explorer, and a collection's `paging.next`/`previous` become
 * "Next page"/"Previous page" buttons. Clicks are handled by the result panel, by delegation.
 */
import { h } from './dom.js';
import { isRecord } from './guards.js';

export interface TreeLinks {
  /** The Explorer address that opens a node (a real link, so it opens in a new tab too). */
  nodeHref(id: string): string;
  /** The path box text for a link the API wrote; undefined for other links. */
  graphPath(url: string): string | undefined;
}

/** Node ids: numeric, or compound `<user>_<post>`. */
const ID_VALUE = /^\d+(?:_\d+)?$/;

export function renderTree(value: unknown, links: TreeLinks): HTMLElement {
  return renderValue(undefined, value, '', links);
}

/** The Previous/Next buttons of a collection, or undefined when it has neither link. */
export function pagerFor(collection: unknown, links: TreeLinks): HTMLElement | undefined {
  const paging = isRecord(collection) && isRecord(collection.paging) ? collection.paging : undefined;
  if (!paging) return undefined;
  const button = (key: 'previous' | 'next', label: string) => {
    const link = paging[key];
    const path = typeof link === 'string' ? links.graphPath(link) : undefined;
    return path === undefined ? null : h('button', { type: 'button', class: `page-button ${key}`, 'data-path': path }, label);
  };
  const previous = button('previous', '← Previous page');
  const next = button('next', 'Next page →');
  return previous || next ? h('div', { class: 'pager' }, previous, next) : undefined;
}

function renderValue(key: string | undefined, value: unknown, path: string, links: TreeLinks): HTMLElement {
  if (Array.isArray(value) || isRecord(value)) return renderBranch(key, value, path, links);
  return h('div', { class: 'leaf' }, ...keyLabel(key), renderScalar(key, value, links));
}

function renderBranch(key: string | undefined, value: unknown[] | Record<string, unknown>, path: string, links: TreeLinks): HTMLElement {
  const isArray = Array.isArray(value);
  const entries: Array<[string, unknown]> = isArray ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return h('div', { class: 'leaf' }, ...keyLabel(key), h('span', { class: 'punct' }, `${open}${close}`));
  const count = isArray ? `${entries.length} ${entries.length === 1 ? 'item' : 'items'}` : `${entries.length} ${entries.length === 1 ? 'key' : 'keys'}`;
  const children = h('div', { class: 'children' });
  for (const [childKey, child] of entries) {
    const childPath = path === '' ? childKey : `${path}.${childKey}`;
    children.append(renderValue(isArray ? `#${childKey}` : childKey, child, childPath, links));
  }
  const pager = isArray ? undefined : pagerFor(value, links);
  if (pager) children.append(pager);

  // Cursors are opaque and long; the paging buttons use them, so they start folded.
  const details = h(
    'details',
    { class: 'branch', open: key === 'cursors' ? undefined : '', 'data-key-path': path },
    h('summary', {}, ...keyLabel(key), h('span', { class: 'punct' }, open), h('span', { class: 'folded' }, `…${close}`), h('span', { class: 'count' }, count)),
    children,
    h('div', { class: 'punct closer' }, close),
  );
  return details;
}

/** `name:` for object keys; array positions (`#0`) are shown muted. */
function keyLabel(key: string | undefined): Node[] {
  if (key === undefined) return [];
  const isIndex = key.startsWith('#');
  return [h('span', { class: isIndex ? 'key index' : 'key' }, isIndex ? key.slice(1) : key), h('span', { class: 'punct' }, ': ')];
}

function renderScalar(key: string | undefined, value: unknown, links: TreeLinks): HTMLElement {
  if (typeof value === 'string') {
    const shown = JSON.stringify(value);
    if (key !== undefined && (key === 'id' || key.endsWith('_id')) && ID_VALUE.test(value)) {
      return h('a', { class: 'string id-link', href: links.nodeHref(value), 'data-id': value, title: `Open node ${value}` }, shown);
    }
    if (/^https?:\/\//.test(value)) {
      const path = links.graphPath(value);
      if (path !== undefined) return h('a', { class: 'string graph-link', href: '#', 'data-path': path, title: `Open ${path}` }, shown);
      return h('a', { class: 'string', href: value, target: '_blank', rel: 'noopener noreferrer' }, shown);
    }
    return h('span', { class: 'string' }, shown);
  }
  if (typeof value === 'number') return h('span', { class: 'number' }, String(value));
  if (typeof value === 'boolean') return h('span', { class: 'boolean' }, String(value));
  return h('span', { class: 'null' }, 'null');
}
