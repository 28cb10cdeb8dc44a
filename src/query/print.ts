import type { Selection } from './selection.js';

/** Writes a selection back as a `fields` expression (used to carry a nested edge's fields into its paging links). */
export function printFields(selections: readonly Selection[]): string {
  return selections.map(printSelection).join(',');
}

function printSelection(selection: Selection): string {
  const modifiers = Object.entries(selection.modifiers)
    .map(([name, value]) => `.${name}(${value})`)
    .join('');
  const children = selection.children ? `{${printFields(selection.children)}}` : '';
  return `${selection.name}${modifiers}${children}`;
}
