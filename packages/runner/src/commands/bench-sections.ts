import { MemoryMatrixError } from '@memory-matrix/spec';

/** The parts of `bench`, in the order they run. (Apart from bench.ts, so the CLI names them without loading bench's libraries.) */
export const BENCH_SECTIONS = ['phases', 'load', 'oracle', 'gate', 'scale'] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** Validate --section values. Throws USAGE naming the unknown one and the known ones. */
export function parseSections(values: string[]): BenchSection[] {
  if (values.length === 0) return [...BENCH_SECTIONS];
  for (const v of values)
    if (!(BENCH_SECTIONS as readonly string[]).includes(v)) throw new MemoryMatrixError('USAGE', `--section: unknown section ${JSON.stringify(v)}; known: ${BENCH_SECTIONS.join(', ')}`);
  return BENCH_SECTIONS.filter((s) => values.includes(s));
}
