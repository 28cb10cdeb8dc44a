import type { Selection } from '../query/selection.js';
import type { Association, StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';
import type { ItemOf } from './edge-items.js';
import { renderObjectsById, type Json, type RenderByIdOptions } from './render.js';

/**
 * Items that show the object each row points at (its id2), in whatever shape `show` gives it.
 * Every target of the page is rendered in one pass, each once however many rows name it; a row
 * whose target the viewer may not see shows nothing.
 */
export async function targetItems(
  context: ReadContext,
  rows: readonly Association[],
  selection: Selection[] | undefined,
  /** The rows' objects when the page query brought them along. */
  objects: ReadonlyMap<number, StoredObject> | undefined,
  show: (target: Json, row: Association) => Json,
  /** Whether people who never used the app are hidden (the viewer's rule when absent), and what targets show when `selection` names nothing. */
  options: Pick<RenderByIdOptions, 'hidePeople' | 'shape'> = {},
): Promise<ItemOf> {
  const ids = [...new Set(rows.map((row) => row.id2))];
  const targets = await renderObjectsById(context, ids, selection, { ...options, ...(objects ? { preloaded: objects } : {}) });
  return (row) => {
    const target = targets.get(row.id2);
    return target === undefined ? undefined : show(target, row);
  };
}
