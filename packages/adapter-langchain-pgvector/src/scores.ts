import { pgvectorToCanonical } from '@memory-matrix/adapter-pgvector';
import type { Metric, ScoreConversion } from '@memory-matrix/spec';

/**
 * The metric → LangChain's `distanceStrategy` (PGVectorStoreArgs; `computedOperatorString` maps
 * it to pgvector's operator: cosine `<=>`, innerProduct `<#>`, euclidean `<->`). The client's
 * default is `cosine` — a table reopened without it is searched by cosine whatever it was created
 * for, so the driver always passes the one the collection was created with (marker.ts).
 */
export const DISTANCE_STRATEGY: Record<Metric, 'cosine' | 'innerProduct' | 'euclidean'> = { cosine: 'cosine', ip: 'innerProduct', l2: 'euclidean' };

/**
 * The score `similaritySearchVectorWithScore` returns → canonical score.
 *
 * Source: @langchain/community 1.1.29, src/vectorstores/pgvector.ts (dist/vectorstores/pgvector.cjs):
 * `searchPostgres` selects `"embedding" <op> $1 AS "_distance"` and returns
 * `convertDistanceToScore(_distance)`, which is the raw distance while `scoreNormalization` is
 * `"distance"` — its default ("Raw distance if scoreNormalization is "distance", otherwise
 * similarity score"), although the method's doc comment calls the value a similarity score
 * (langchain-ai/langchainjs#9782, #11043). So the value is pgvector's operator result, and the
 * canonical score is pgvector's conversion (pgvector README, "Distances"; spec scores):
 * - `cosine` (`<=>` cosine distance): d → 1 − d
 * - `ip` (`<#>` negative inner product): d → −d
 * - `l2` (`<->` Euclidean distance): d → −d
 * A NaN distance (a zero vector under cosine) stays NaN: the client returns it as it is.
 */
export function langchainScoreToCanonical(metric: Metric, distance: number): number {
  return pgvectorToCanonical(metric, distance);
}

/** The driver's score conversion (`BackendDriver.scores`). */
export const LANGCHAIN_PGVECTOR_SCORES: ScoreConversion = {
  formula:
    'LangChain.js PGVectorStore similaritySearchVectorWithScore returns pgvector\'s distance (scoreNormalization "distance", its default): cosine <=> d → 1 − d; innerProduct <#> d → −d; euclidean <-> d → −d (@langchain/community pgvector.ts convertDistanceToScore; pgvector README, "Distances")',
  toCanonical: langchainScoreToCanonical,
};
