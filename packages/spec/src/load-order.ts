import { MemoryMatrixError } from './errors';

/**
 * The order a cell writes the golden memories in (issue 31, kind 8). A dataset is stored in id
 * order, so loading it as stored makes insertion order and id order the same: a store that breaks
 * exact ties by insertion order (`ORDER BY distance, rowid`) would then pass C07, whose tie rule is
 * id order. The cell loads a seeded shuffle instead — reproducible: the same seed gives the same
 * order on every machine and Node version, and the seed is in report.json, report.md and the
 * console, so a failure can be replayed with `--load-seed <seed>`.
 */

/** The seed of a run that names none (`--load-seed` absent): fixed, so a run is reproducible by default. */
export const DEFAULT_LOAD_SEED = 31;

/** How the order is made, as the reports name it. */
export const LOAD_ORDER_METHOD = 'Fisher-Yates shuffle driven by mulberry32(seed)';

/**
 * mulberry32 (Tommy Ettinger, public domain; https://gist.github.com/tommyettinger/46a874533244883189143505d203312c):
 * a 32-bit state PRNG. Returns a function giving uniform floats in [0, 1) (multiples of 2⁻³²),
 * the same sequence for the same uint32 `seed` everywhere (integer arithmetic with Math.imul only).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A new array with the items of `items` in a seeded pseudo-random order: Fisher–Yates (Knuth,
 * TAOCP vol. 2 §3.4.2, Algorithm P), from the last index down, j = ⌊u·(i+1)⌋ with u from
 * `mulberry32(seed)`. When that permutation is the identity (likely only for a few items: 1/n!)
 * the items are returned reversed instead, so with 2 or more items the order is never the input
 * order. `items` is not changed. Deterministic in (`seed`, items.length).
 */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const at = items.map((_, i) => i);
  const next = mulberry32(seed);
  for (let i = at.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [at[i], at[j]] = [at[j]!, at[i]!];
  }
  if (at.every((x, i) => x === i)) at.reverse();
  return at.map((i) => items[i]!);
}

/** The largest seed: seeds are uint32. */
export const MAX_LOAD_SEED = 0xffffffff;

/**
 * `--load-seed` as given: undefined → `DEFAULT_LOAD_SEED`; `random` → a fresh random uint32 (the
 * report records it, so the run can be replayed); else a decimal integer 0…2³²−1. Throws USAGE
 * naming the option and the value otherwise.
 */
export function parseLoadSeed(value: string | undefined, random: () => number = Math.random): number {
  if (value === undefined) return DEFAULT_LOAD_SEED;
  if (value === 'random') return Math.floor(random() * (MAX_LOAD_SEED + 1));
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_LOAD_SEED) {
    throw new MemoryMatrixError('USAGE', `--load-seed ${JSON.stringify(value)}: expected an integer 0-${MAX_LOAD_SEED} or "random"`);
  }
  return Number(value);
}
