import { vectorCapabilities, type Capabilities } from '@memory-matrix/spec';
import { MASTRA_FILTER_OPERATORS } from './filter-compile';

/**
 * What Mastra's vector API can do over either store (README.md says why each flag is what it is);
 * `maxDim` per store.
 */
export function mastraCapabilities(maxDim: number): Capabilities {
  return vectorCapabilities({
    // PgVector and LibSQLVector score 1 - cosine distance whatever metric the index has (scores.ts).
    metrics: ['cosine'],
    // Collections are created flat: every query scans every row.
    exactScan: true,
    // Mastra's filter translator pushes these into the query's SQL WHERE (filter-compile.ts).
    filterOperators: [...MASTRA_FILTER_OPERATORS],
    // query({ minScore }) keeps score > minScore.
    threshold: true,
    // upsert is INSERT … ON CONFLICT (vector_id) DO UPDATE, in one transaction.
    upsert: true,
    quantized: false,
    maxDim,
    timeDecay: false,
    // Every upsert / delete is committed before it resolves.
    readYourWrites: 'strong',
  });
}
