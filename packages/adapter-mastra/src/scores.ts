import { MemoryMatrixError, type Metric, type ScoreConversion } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * Mastra's query score → canonical score. @mastra/pg 0.17.10 `PgVector.query` selects
 * `1 - (embedding <=> query)` (pgvector's cosine distance) and @mastra/libsql 0.16.4
 * `LibSQLVector.query` `1 - vector_distance_cos(embedding, query)`, whatever metric the index was
 * created with: the score is the cosine similarity, the canonical cosine score, unchanged. Only
 * cosine is declared (README "What Mastra does"). A null score (a zero vector) is NaN.
 */
export function mastraScoreToCanonical(metric: Metric, score: number | null | undefined): number {
  if (metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: Mastra's query scores by cosine similarity only, not ${metric}`);
  return score === null || score === undefined ? Number.NaN : Number(score);
}

/** The score conversion the drivers declare (`BackendDriver.scores`). */
export const MASTRA_SCORES: ScoreConversion = {
  formula:
    'Mastra query score = 1 - cosine distance (PgVector: 1 - (embedding <=> q); LibSQLVector: 1 - vector_distance_cos(embedding, q)) for every index metric, i.e. cosine similarity = canonical (@mastra/pg 0.17.10, @mastra/libsql 0.16.4 query)',
  toCanonical: (metric, native) => mastraScoreToCanonical(metric, native),
};
