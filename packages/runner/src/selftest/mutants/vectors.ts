import type { MemoryRecord } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/** Decimals the rounded-vector mutant keeps. */
export const ROUND_DECIMALS = 2;

/** `v` with every component rounded to `decimals` decimal places (then stored as float32). */
export function roundVector(v: Float32Array, decimals = ROUND_DECIMALS): Float32Array {
  const f = 10 ** decimals;
  return Float32Array.from(v, (x) => Math.round(x * f) / f);
}

/**
 * Vectors rounded on write. Public bug kind: "embeddings lose precision in storage" — vectors
 * serialised with `toFixed(2)` / `%.2f` into a text literal, a JSON encoder with limited
 * precision, or a lower-precision column type chosen by a migration. Every component of every
 * upserted embedding is rounded to `ROUND_DECIMALS` decimals; queries are untouched.
 */
export const vectorsRounded: Mutant = {
  name: 'vectors-rounded',
  family: 'vectors',
  bug: `embeddings are rounded to ${ROUND_DECIMALS} decimals on write`,
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => ({
      upsert: (records) => inner.upsert(records.map((r: MemoryRecord) => ({ ...r, embedding: roundVector(r.embedding) }))),
    }),
  }),
};

export const VECTOR_MUTANTS: readonly Mutant[] = [vectorsRounded];
