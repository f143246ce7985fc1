import { defineDriver, hnswIndexSchema, ivfflatIndexSchema } from '@memory-matrix/spec';
import { PGVECTOR_CAPABILITIES } from '../pgvector-adapter';
import { PGVECTOR_SCORES } from '../scores';
import { postgresContainerKind } from './container';
import { pgliteEngines } from './embedded';
import { pgvectorUrl } from './url';
import { pgvectorSampleSource } from '../sample';

/**
 * The pgvector driver: PostgreSQL + pgvector through node-postgres (or PGlite in process).
 * Offers `container` (kind `postgres`, with fault controls and pg_dump/pg_restore dumps),
 * `embedded` (engines `pglite-0.2`, `pglite-0.5`) and `url` (`pgvector@url=postgres://…`).
 * Reads a user's table for `sample` (`sampleSource`). Takes no `adapterOptions`.
 */
export const pgvectorDriver = defineDriver({
  name: 'pgvector',
  description: 'PostgreSQL + pgvector (node-postgres; PGlite in process)',
  capabilities: PGVECTOR_CAPABILITIES,
  scores: PGVECTOR_SCORES,
  /** Index types: HNSW (m, efConstruction, efSearch) and IVFFlat (lists, probes); spec hnswIndexSchema, ivfflatIndexSchema. */
  indexes: { hnsw: hnswIndexSchema, ivfflat: ivfflatIndexSchema },
  container: postgresContainerKind,
  embedded: pgliteEngines,
  url: pgvectorUrl,
  sampleSource: pgvectorSampleSource,
});
