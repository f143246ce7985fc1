import { distanceToCanonical, type Metric, type ScoreConversion } from '@memory-matrix/spec';

/**
 * Chroma native distance → canonical score (docs/design.md "canonical score": cosine similarity for
 * `cosine`, inner product for `ip`, negative Euclidean distance for `l2`; higher is more similar).
 *
 * Source: Chroma docs, collection configuration `space` (the hnswlib distance functions):
 *   cosine d = 1 − Σaᵢbᵢ / (‖a‖‖b‖), inner product d = 1 − Σaᵢbᵢ, squared L2 d = Σ(aᵢ − bᵢ)².
 * - `cosine`: d → 1 − d
 * - `ip`:     d → 1 − d
 * - `l2`:     d → −√d   (Chroma returns the SQUARED distance; INVALID_INPUT for d < 0)
 *
 * `d` is the float32 distance Chroma computes (hnswlib, float32 accumulation), widened to a JS
 * number by JSON. Chroma's default space is squared L2 (C10 checks the metric as created).
 */
export const chromaToCanonical = distanceToCanonical({ cosine: 'one-minus', ip: 'one-minus', l2: 'negative-sqrt' }, 'chromaToCanonical');

/** The driver's score conversion (`BackendDriver.scores`). */
export const CHROMA_SCORES: ScoreConversion = {
  formula: 'Chroma cosine d → 1 − d; ip (d = 1 − a·b) → 1 − d; squared l2 d → −√d (Chroma docs, collection configuration "space")',
  toCanonical: chromaToCanonical,
};

/** Chroma's `space` for each metric (collection configuration `hnsw.space`). */
export const CHROMA_SPACE: Record<Metric, 'cosine' | 'ip' | 'l2'> = {
  cosine: 'cosine',
  ip: 'ip',
  l2: 'l2',
};

/** The metric of a Chroma `space`, or undefined for an unknown one. */
export function metricOfSpace(space: unknown): Metric | undefined {
  return space === 'cosine' || space === 'ip' || space === 'l2' ? space : undefined;
}
