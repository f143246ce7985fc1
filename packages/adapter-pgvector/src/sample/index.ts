/**
 * The pgvector driver's `sampleSource` facet (contract: `SampleSource` in
 * packages/spec/src/driver.ts): `memory-matrix sample --from postgres://…` reads a user's own
 * PostgreSQL + pgvector table read-only (snapshot.ts) and parses its embeddings exactly
 * (vector-text.ts). The column defaults follow LangChain's PGVector table
 * `langchain_pg_embedding` (langchain-postgres: id varchar, collection_id uuid, embedding vector,
 * document varchar, cmetadata jsonb); `created_at` and `kind` have no default there.
 */
import type { SampleColumnMapping, SampleSource } from '@memory-matrix/spec';
import { safeUrl } from './safe-url';
import { PgSampleSnapshot } from './snapshot';
import { parseVectorText } from './vector-text';

/** LangChain PGVector's columns (see the file comment). */
const DEFAULT_COLUMNS: SampleColumnMapping = { id: 'id', text: 'document', embedding: 'embedding', metadata: 'cmetadata', namespace: { column: 'collection_id' }, created_at: null, kind: null };

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
  defaults: { table: 'langchain_pg_embedding', columns: DEFAULT_COLUMNS, description: 'LangChain PGVector id,document,embedding,cmetadata,namespace=collection_id' },
  // A plain (unquoted) PostgreSQL identifier; NAMEDATALEN 64 leaves 63 bytes.
  columnName: { pattern: /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, description: '[A-Za-z_][A-Za-z0-9_$]*, ≤ 63 chars' },
  embeddingNote: 'parsed exactly from the PostgreSQL text form to float32',
  open: ({ url, label, table, columns }) => PgSampleSnapshot.open(url, label, table, columns),
  parseEmbedding: parseVectorText,
};
