import { distanceToCanonical, type Metric, type ScoreConversion } from '@memory-matrix/spec';

/**
 * pgvector native distance → canonical score (docs/design.md "canonical score": cosine similarity
 * for `cosine`, inner product for `ip`, negative Euclidean distance for `l2`; higher is more
 * similar).
 *
 * Source: pgvector README, "Querying" and "Distances":
 *   `<->` L2 distance, `<#>` negative inner product, `<=>` cosine distance;
 *   "`<#>` returns the negative inner product since Postgres only supports ASC order index
 *   scans on operators"; cosine distance is 1 − cosine similarity.
 * - `cosine` (`<=>`): d → 1 − d
 * - `ip`     (`<#>`): d → −d
 * - `l2`     (`<->`, Euclidean, not squared): d → −d
 *
 * `d` is the float8 the operator returns (pgvector accumulates in float4, then widens).
 */
export const pgvectorToCanonical = distanceToCanonical({ cosine: 'one-minus', ip: 'negated', l2: 'negated' }, 'pgvectorToCanonical');

/** The driver's score conversion (`BackendDriver.scores`). */
export const PGVECTOR_SCORES: ScoreConversion = {
  formula: 'pgvector <=> cosine distance d → 1 − d; <#> negative inner product d → −d; <-> Euclidean distance d → −d (pgvector README, "Distances")',
  toCanonical: pgvectorToCanonical,
};

/** The pgvector distance operator of each metric (ascending = most similar first). */
export const DISTANCE_OPERATOR: Record<Metric, '<=>' | '<#>' | '<->'> = {
  cosine: '<=>',
  ip: '<#>',
  l2: '<->',
};

/** The operator class an HNSW / IVFFlat index needs so the metric's operator can use it. */
export const OPERATOR_CLASS: Record<Metric, string> = {
  cosine: 'vector_cosine_ops',
  ip: 'vector_ip_ops',
  l2: 'vector_l2_ops',
};
