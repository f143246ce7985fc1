import { MemoryMatrixError, type Metric, type ScoreConversion } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * mem0's search score → canonical score. mem0ai 3.3.1 `Memory.search` returns
 * `scoreAndRank`'s `min((semantic + bm25 + entityBoost) / maxPossible, 1)`, where `semantic` is the
 * vector store's score — for the embedded `memory` store `MemoryVectorStore.cosineSimilarity`
 * (dot / (‖a‖·‖b‖), float64 over the stored float32) — and maxPossible is 1 while no BM25 or
 * entity score is present. The driver searches with a query text that yields neither (collection.ts
 * `QUERY_TEXT`), so the score is the cosine similarity, the canonical cosine score, unchanged.
 * A zero vector (stored or asked) gives NaN, which mem0 returns as it is (NaN < threshold is false).
 */
export function mem0ScoreToCanonical(metric: Metric, score: number | null | undefined): number {
  if (metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: mem0's embedded store ranks by cosine similarity only, not ${metric}`);
  return score === null || score === undefined ? Number.NaN : score;
}

/** The score conversion the driver declares (`BackendDriver.scores`). */
export const MEM0_SCORES: ScoreConversion = {
  formula:
    "mem0 Memory.search score = min((semantic + bm25 + entityBoost) / maxPossible, 1) with no BM25 or entity term (the driver's query text yields none), i.e. the store's semantic score as canonical cosine: embedded store cosine similarity (MemoryVectorStore.cosineSimilarity); pgvector store max(0, min(1, 1 - (vector <=> query))) (PGVector.search: clamped to 0..1) (mem0ai 3.3.1 scoreAndRank)",
  toCanonical: (metric, native) => mem0ScoreToCanonical(metric, native),
};

/**
 * mem0's search score over its pgvector store → canonical. mem0ai 3.3.1 `PGVector.search` returns
 * `max(0, min(1, 1 − d))` for the cosine distance `d = vector <=> query` (pgvector's `<=>`), which
 * `scoreAndRank` passes on unchanged while no BM25 or entity term is present (as above). Canonical
 * cosine is `1 − d`, so the score is taken as it is: a similarity below 0 arrives as 0, above 1
 * (float rounding) as 1 — mem0's clamp, which a check sees (README "Over pgvector"). NaN in (a
 * zero vector: pgvector's `<=>` gives NaN) → NaN out.
 */
export function mem0PgScoreToCanonical(metric: Metric, score: number | null | undefined): number {
  if (metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: mem0's pgvector store ranks by cosine distance only (vector <=>), not ${metric}`);
  return score === null || score === undefined ? Number.NaN : score;
}
