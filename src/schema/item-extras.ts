/**
 * What each item of an edge may carry beside its own fields, sent by default and whenever
 * `fields` names it, only in the API versions where `versions` holds; read for a whole page of
 * items at once.
 */
import type { RuleName } from './versions.js';

/** A value under `name`: the item's link time (EdgeDef.itemTime) or a value its link holds (EdgeDef.itemData). */
export interface ItemValue {
  name: string;
  versions?: RuleName;
}

/**
 * A boolean: whether the item lists the node under `assoc` (`of: 'item'`: a member who
 * administers the group), or the node the item (`of: 'node'`).
 */
export interface ItemFlag extends ItemValue {
  assoc: string;
  of: 'item' | 'node';
}
