/**
 * Reproducible sampling without replacement, independent of the order rows are read in:
 * every row gets the key `h(seed, label, id)` = the first 48 bits of sha256(`<seed>\0<label>\0<id>`)
 * as an integer, and a stratum keeps the rows with the smallest keys ("bottom-k" sampling, i.e. a
 * uniformly random k-subset, since the keys are exchangeable). Memory: at most `capacity` ids per
 * stratum while streaming. Stratified samples take, per stratum, a share proportional to its row
 * count (largest-remainder rounding; ties by stratum name).
 */
import { createHash } from 'node:crypto';

/** The 48-bit key of an id under a seed and a purpose label (integer in [0, 2^48)). */
export function sampleKey(seed: number, label: string, id: string): number {
  return createHash('sha256').update(`${seed}\0${label}\0${id}`, 'utf8').digest().readUIntBE(0, 6);
}

interface Keyed {
  key: number;
  id: string;
}
const before = (a: Keyed, b: Keyed) => a.key < b.key || (a.key === b.key && a.id < b.id);

/** Streams (id, stratum) and keeps each stratum's `capacity` smallest keys, plus its row count. */
export class StratifiedReservoir {
  private readonly kept = new Map<string, Keyed[]>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly seed: number,
    private readonly capacity: number,
  ) {}

  add(id: string, stratum: string): void {
    this.counts.set(stratum, (this.counts.get(stratum) ?? 0) + 1);
    const item = { key: sampleKey(this.seed, 'sample', id), id };
    let list = this.kept.get(stratum);
    if (!list) this.kept.set(stratum, (list = []));
    if (list.length >= this.capacity && !before(item, list[list.length - 1]!)) return;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(list[mid]!, item)) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, item);
    if (list.length > this.capacity) list.pop();
  }

  /** Row count per stratum, strata sorted by name (UTF-16 code units). */
  strata(): Array<{ stratum: string; rows: number }> {
    return [...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([stratum, rows]) => ({ stratum, rows }));
  }

  /**
   * Choose `total` ids (all rows when there are fewer): per stratum its proportional share
   * (`allocate`), the smallest keys first. Returns the chosen ids per stratum.
   */
  choose(total: number): Array<{ stratum: string; rows: number; chosen: string[] }> {
    const strata = this.strata();
    const shares = allocate(
      strata.map((s) => s.rows),
      total,
    );
    return strata.map((s, i) => ({
      ...s,
      chosen: this.kept
        .get(s.stratum)!
        .slice(0, shares[i])
        .map((k) => k.id),
    }));
  }
}

/**
 * Largest-remainder (Hamilton) apportionment of `total` over strata of `sizes` rows:
 * share_i = floor(total·size_i/N), then one more to the largest remainders (earlier stratum on a
 * tie), never more than size_i. `total ≥ N` gives every row.
 */
export function allocate(sizes: number[], total: number): number[] {
  const n = sizes.reduce((a, b) => a + b, 0);
  if (total >= n) return [...sizes];
  const exact = sizes.map((s) => (total * s) / n);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ r: e - Math.floor(e), i })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    if (shares[i]! < sizes[i]!) {
      shares[i]! += 1;
      left -= 1;
    }
  }
  return shares;
}
