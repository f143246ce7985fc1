import { negativeSqrtOfSquared, type Metric, type ScoreConversion } from '@memory-matrix/spec';

/**
 * Milvus's native search score → canonical score (docs/design.md "canonical score": cosine
 * similarity, inner product, negative Euclidean distance; higher is more similar).
 *
 * Source: Milvus docs, "Metric Types" (milvus.io/docs/metric.md): COSINE returns the cosine
 * similarity (range [-1, 1], larger is more similar); IP returns the inner product Σaᵢbᵢ (larger is
 * more similar); L2 returns the SQUARED Euclidean distance Σ(aᵢ − bᵢ)² ("Milvus only calculates
 * the value before applying square root", smaller is more similar).
 * - `cosine`: s → s
 * - `ip`:     s → s
 * - `l2`:     d → −√d   (INVALID_INPUT for d < 0, spec negativeSqrtOfSquared)
 * `s`/`d` is the float32 value the server computes, widened to a JS number by the client.
 */
export function milvusToCanonical(metric: Metric, native: number): number {
  switch (metric) {
    case 'cosine':
    case 'ip':
      return native;
    case 'l2':
      return negativeSqrtOfSquared(native, 'milvusToCanonical');
  }
}

/** The driver's score conversion (`BackendDriver.scores`). */
export const MILVUS_SCORES: ScoreConversion = {
  formula: 'Milvus COSINE s (cosine similarity) → s; IP s (a·b) → s; L2 d (squared distance) → −√d (Milvus docs, "Metric Types")',
  toCanonical: milvusToCanonical,
};
