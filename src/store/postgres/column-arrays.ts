/**
 * A batch of rows as the arrays an `unnest($1::…[], $2::…[], …)` statement takes: one array a
 * column, holding each row's value of it in the rows' order. One statement thus writes a batch
 * of any size.
 */
export function columnArrays<T>(rows: readonly T[], ...columns: ReadonlyArray<(row: T) => unknown>): unknown[][] {
  return columns.map((column) => rows.map((row) => column(row)));
}
