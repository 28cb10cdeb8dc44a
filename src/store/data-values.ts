/**
 * Finding values inside objects' data, in the graph as it is and in each of its snapshots: what
 * a snapshot holds may come back with a restore, so what it points at is still wanted.
 */
export interface DataValueSearch {
  /**
   * Which of `values` some object's data holds at one of `paths` (dotted, as `image.key`), in the
   * graph or in any of its snapshots. One pass over the objects per place searched.
   */
  findDataValues(paths: readonly string[], values: readonly string[]): Promise<Set<string>>;
}

/** Names joined by dots, each of lower-case letters and `_`: a JSON path with nothing to quote. */
const DATA_PATH = /^[a-z_]+(\.[a-z_]+)*$/;

export function checkDataPaths(paths: readonly string[]): void {
  for (const path of paths) if (!DATA_PATH.test(path)) throw new RangeError(`Not a data path: ${JSON.stringify(path.slice(0, 80))}`);
}
