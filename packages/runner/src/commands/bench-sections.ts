import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * The sections of `bench` and their parser, apart from the bench itself: the CLI builds its
 * options from them at every start, and the bench's modules (LangChain.js, usearch, the load
 * contenders) are loaded only when `bench` runs.
 */

/** The parts of `bench`, in the order they run. */
export const BENCH_SECTIONS = ['phases', 'load', 'oracle', 'gate', 'scale', 'profiles'] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** The sections run when none is named: all but `profiles` (whole profile runs, the default one takes ≈ 10 min on a 2-core machine). */
export const DEFAULT_BENCH_SECTIONS: readonly BenchSection[] = BENCH_SECTIONS.filter((s) => s !== 'profiles');

/** Validate --section values (none: DEFAULT_BENCH_SECTIONS). Throws USAGE naming the unknown one and the known ones. */
export function parseSections(values: string[]): BenchSection[] {
  if (values.length === 0) return [...DEFAULT_BENCH_SECTIONS];
  for (const v of values)
    if (!(BENCH_SECTIONS as readonly string[]).includes(v)) throw new MemoryMatrixError('USAGE', `--section: unknown section ${JSON.stringify(v)}; known: ${BENCH_SECTIONS.join(', ')}`);
  return BENCH_SECTIONS.filter((s) => values.includes(s));
}
