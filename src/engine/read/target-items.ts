import type { Selection } from '../../query/selection.js';
import type { StoredLink } from '../../schema/behaviours.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import type { DefaultShape } from './plan.js';
import { renderVisibleObjects } from './render.js';
import type { Json } from '../../ids.js';

/**
 * Items that show the object each row points at (its id2), in whatever shape `show` gives it.
 * Every target of the page is rendered in one pass, each once however many rows name it; a row
 * whose target is not among the visible nodes shows nothing.
 */
export async function targetItems(
  context: ReadContext,
  rows: readonly StoredLink[],
  selection: Selection[] | undefined,
  /** The rows' nodes the viewer may see (shownRows). */
  visible: ReadonlyMap<number, StoredObject>,
  show: (target: Json, row: StoredLink) => Json,
  /** What targets show when `selection` names nothing; as listed nodes when absent. */
  shape?: DefaultShape,
): Promise<(row: StoredLink) => Json | undefined> {
  const targets = [...new Set(rows.map((row) => row.id2))].map((id) => visible.get(id)).filter((object): object is StoredObject => object !== undefined);
  const rendered = await renderVisibleObjects(context, targets, selection, shape);
  return (row) => {
    const target = rendered.get(row.id2);
    return target === undefined ? undefined : show(target, row);
  };
}
