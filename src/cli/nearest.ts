/**
 * The candidate a mistyped name most likely meant (`prot` → `port`, `media` → `media-dir`), or
 * undefined when none is close: a name that begins the candidate, or one a few slips away from
 * it (a letter added, dropped, changed, or two swapped), about one slip per three letters.
 */
export function nearest(typed: string, candidates: Iterable<string>): string | undefined {
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = typed.length >= 2 && name.startsWith(typed) ? 0.5 : slips(typed, name);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Edits between two words, a swap of neighbours counting as one (optimal string alignment). */
function slips(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}
