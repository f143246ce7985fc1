/**
 * Measuring pairs of bulk paths fairly on a noisy shared machine: the contenders of one
 * comparison run interleaved (A, B, C, A, B, C, …) in the same process, each `rounds` times, and
 * each contender's median is kept. A ratio is only ever formed from medians of one such run.
 */
import type { CollectionSpec, MemoryRecord, MemoryStore } from '@memory-matrix/spec';

/** One contender: `run()` does its own untimed setup, times only the work, and returns that time in ms. */
export interface Contender {
  name: string;
  run(): Promise<number>;
}

/**
 * The adapter's contender of a load comparison: each round creates a new collection from
 * `specOf(round)` (untimed), times one `upsert` of all `records`, and drops the collection
 * again (untimed, also when the upsert throws). Shared by the pgvector, Redis and Chroma ratios.
 */
export function adapterContender(store: MemoryStore, specOf: (round: number) => CollectionSpec, records: MemoryRecord[]): Contender {
  let round = 0;
  return {
    name: 'adapter',
    run: async () => {
      const spec = specOf(round++);
      const collection = await store.createCollection(spec);
      try {
        const t0 = performance.now();
        await collection.upsert(records);
        return performance.now() - t0;
      } finally {
        await store.dropCollection(spec.name);
      }
    },
  };
}

/** Rounds per contender when none is given: the "median of 3". */
export const DEFAULT_ROUNDS = 3;

/** Median of a non-empty list of numbers (mean of the middle two for an even count). Throws RangeError on an empty list. */
export function median(xs: number[]): number {
  if (xs.length === 0) throw new RangeError('median of an empty list');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Run every contender `rounds` times, interleaved round by round, and return each one's median
 * time in ms (keyed by name) and every sample. A contender that throws aborts the measurement
 * (its error is passed on: a failing bulk path is a finding, never a skipped row).
 */
export async function interleavedMedians(contenders: Contender[], rounds = DEFAULT_ROUNDS): Promise<{ medians: Map<string, number>; samples: Map<string, number[]> }> {
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) for (const c of contenders) samples.get(c.name)!.push(await c.run());
  return { medians: new Map([...samples].map(([k, v]) => [k, median(v)])), samples };
}

/**
 * One printed ratio. `ratio` = numerator time ÷ denominator time (both medians, ms, of one
 * interleaved run); `definition` says which is which, e.g. "adapter ÷ COPY text (time)".
 * `goal` is the text printed beside it and `met` whether it holds (null: no goal, reported only).
 */
export interface RatioRow {
  group: string;
  definition: string;
  numeratorMs: number;
  denominatorMs: number;
  ratio: number;
  goal: string;
  met: boolean | null;
}

/** A RatioRow from two medians; `check(ratio)` decides `met` (omit it for a reported-only ratio). */
export function ratioRow(group: string, definition: string, numeratorMs: number, denominatorMs: number, goal = '–', check?: (ratio: number) => boolean): RatioRow {
  const ratio = numeratorMs / denominatorMs;
  return { group, definition, numeratorMs, denominatorMs, ratio, goal, met: check ? check(ratio) : null };
}
