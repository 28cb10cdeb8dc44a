/**
 * The parsed form of a `fields` expression: a tree of selections. It names fields and edges
 * and carries their modifiers as written; what the names mean is the schema's business.
 */
export interface Selection {
  /** Field or edge name as written; may contain dots (`payment.subscriptions`). */
  name: string;
  /**
   * Modifiers in the order written, raw text of the argument: `.limit(10)` → `{limit: '10'}`.
   * `.fields(...)` is not a modifier: it becomes `children`. A repeated modifier keeps the last value.
   */
  modifiers: Record<string, string>;
  /** Sub-selection from `{...}` or `.fields(...)`; undefined when none was written. */
  children?: Selection[];
  /** Zero-based offset of the name in the expression, for error messages. */
  position: number;
}
