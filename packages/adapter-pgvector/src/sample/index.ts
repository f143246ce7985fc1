/**
 * The pgvector driver's `sampleSource` facet (contract: `SampleSource` in
 * packages/spec/src/driver.ts): `memory-matrix sample --from postgres://…` reads a user's own
 * PostgreSQL + pgvector table read-only (snapshot.ts) and parses its embeddings exactly
 * (vector-text.ts). The column mapping comes from the table's layout (layouts.ts: the tables
 * LangChain.js, langchain-postgres, LlamaIndex, Mastra and mem0 write), read from
 * `information_schema.columns` and the table's foreign keys (table-shape.ts); the default table
 * is langchain-postgres' `langchain_pg_embedding`, and its mapping is the base `--columns`
 * overrides should the sampler not detect layouts.
 */
import type { SampleSource } from '@memory-matrix/spec';
import { LANGCHAIN_POSTGRES_MAPPING, PG_SAMPLE_LAYOUTS } from './layouts';
import { safeUrl } from './safe-url';
import { PgSampleSnapshot } from './snapshot';
import { describePgTable } from './table-shape';
import { parseVectorText } from './vector-text';

const accepts = (from: string): boolean => {
  try {
    const u = new URL(from);
    return u.protocol === 'postgres:' || u.protocol === 'postgresql:';
  } catch {
    return false;
  }
};

/** `sample --from postgres://user:pw@host:port/db` (or `pgvector@url=postgres://…`): a PostgreSQL table with a pgvector `vector(n)`, `real[]` or `double precision[]` embedding column. */
export const pgvectorSampleSource: SampleSource = {
  description: 'pgvector',
  example: 'postgres://user:pw@host:port/db',
  accepts,
  safeUrl,
  defaults: { table: 'langchain_pg_embedding', columns: LANGCHAIN_POSTGRES_MAPPING, description: `the layout detected from the table's columns (${PG_SAMPLE_LAYOUTS.map((l) => l.name).join(', ')})` },
  layouts: PG_SAMPLE_LAYOUTS,
  describeTable: ({ url, label, table }) => describePgTable(url, label, table),
  // A plain (unquoted) PostgreSQL identifier; NAMEDATALEN 64 leaves 63 bytes.
  columnName: { pattern: /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, description: '[A-Za-z_][A-Za-z0-9_$]*, ≤ 63 chars' },
  embeddingNote: 'parsed exactly from the PostgreSQL text form to float32',
  open: ({ url, label, table, columns }) => PgSampleSnapshot.open(url, label, table, columns),
  parseEmbedding: parseVectorText,
};
