/**
 * "Did you mean …?" for a name that is not one of the known ones (an unknown target, check,
 * config key): the known names closest to it by edit distance.
 */

/**
 * Edit distance of `a` and `b`, case-insensitive: insertions, deletions, substitutions and
 * swaps of two neighbouring characters count 1 each (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // d[i][j]: distance of s[0, i) and t[0, j); three rows are enough for the swap.
  let before: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur.push(d);
    }
    before = prev;
    prev = cur;
  }
  return prev[t.length]!;
}

/**
 * The names of `known` closest to `name` (in `known`'s order): those at the smallest edit
 * distance, when it is at most a third of `name`'s length (at least 1) and no more than `max`
 * names share it (more would be a guess); none otherwise. `name` itself is never suggested.
 */
export function closestNames(name: string, known: Iterable<string>, max = 4): string[] {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best = Infinity;
  let found: string[] = [];
  for (const k of new Set(known)) {
    const d = editDistance(name, k);
    if (d === 0 || d > limit || d > best) continue;
    if (d < best) [best, found] = [d, []];
    found.push(k);
  }
  return found.length <= max ? found : [];
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** `did you mean a or b?` for `closestNames(name, known)` (`show` renders a name), or '' when there is none. */
export function didYouMean(name: string, known: Iterable<string>, show: (k: string) => string = (k) => k): string {
  const names = closestNames(name, known);
  return names.length ? `did you mean ${orList(names.map(show))}?` : '';
}
