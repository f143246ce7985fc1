/**
 * The pgvector table layouts `sample` recognises (contract: `SampleLayout` in
 * packages/spec/src/sample-layout.ts): the tables real clients create, each read from the client's
 * own source at the version named. Types are as `information_schema.columns` names them
 * (`data_type`; `udt_name` for pgvector's `vector`). `halfvec`, `bit` and `sparsevec` embedding
 * columns (Mastra and LlamaIndex options) are not layouts here: the sample source reads `vector`,
 * `real[]` and `double precision[]` only.
 */
import type { SampleColumnMapping, SampleLayout } from '@memory-matrix/spec';

const VARCHAR = ['character varying', 'text'];
const JSON_TYPES = ['jsonb', 'json'];
const none = { created_at: null, namespace: null, kind: null } as const;
const col = (column: string) => ({ column });
const key = (metadataKey: string, ...orKeys: string[]) => (orKeys.length ? { metadataKey, orKeys } : { metadataKey });

/** LangChain.js' own table (no collection table): see `LANGCHAIN_JS`. */
const LANGCHAIN_JS_MAPPING: SampleColumnMapping = { id: 'id', text: col('text'), embedding: 'embedding', metadata: 'metadata', ...none };

/**
 * LangChain.js `PGVectorStore`, @langchain/community 1.1.29, dist/vectorstores/pgvector.cjs
 * `ensureTableInDatabase`: `"id" uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY, "text" text,
 * "metadata" jsonb, "embedding" vector(n)` (the column names are its defaults; `columns: { … }`
 * renames them, which `--columns` then follows). Seeded by the real client in
 * packages/runner/test/sample-layouts.test.ts.
 */
const LANGCHAIN_JS: SampleLayout = {
  name: 'langchain-js',
  client: 'LangChain.js PGVectorStore (@langchain/community)',
  verifiedAgainst: '@langchain/community 1.1.29 dist/vectorstores/pgvector.cjs (ensureTableInDatabase); seeded by the real client in a test',
  columns: [
    { name: 'id', types: ['uuid'] },
    { name: 'text', types: ['text'] },
    { name: 'metadata', types: ['jsonb'] },
    { name: 'embedding', types: ['vector'] },
  ],
  mapping: LANGCHAIN_JS_MAPPING,
  notes: ['LangChain.js keeps no namespace in this layout: every memory is in namespace "default" unless a metadata key is one (--columns namespace=metadata.<key>)'],
};

/**
 * LangChain.js `PGVectorStore` with `collectionTableName` (same file,
 * `ensureCollectionTableInDatabase`): adds `collection_id uuid` with a foreign key to the
 * collection table (any name) `uuid uuid PRIMARY KEY, name character varying, cmetadata jsonb`;
 * one row per `collectionName`. Seeded by the real client in the same test.
 */
const LANGCHAIN_JS_COLLECTION: SampleLayout = {
  name: 'langchain-js-collection',
  client: 'LangChain.js PGVectorStore with a collection table (@langchain/community)',
  verifiedAgainst: '@langchain/community 1.1.29 dist/vectorstores/pgvector.cjs (ensureTableInDatabase, ensureCollectionTableInDatabase); seeded by the real client in a test',
  columns: [...LANGCHAIN_JS.columns, { name: 'collection_id', types: ['uuid'] }],
  references: [{ column: 'collection_id', columns: ['uuid', 'name', 'cmetadata'] }],
  mapping: { ...LANGCHAIN_JS_MAPPING, namespace: col('collection_id') },
  notes: ['namespace = collection_id, the uuid of the collection row (its name is in the collection table)'],
};

/**
 * langchain-postgres (Python) `PGVector`, langchain-postgres 0.0.17
 * langchain_postgres/vectorstores.py `_get_embedding_collection_store`: `langchain_pg_collection
 * (uuid UUID PRIMARY KEY, name VARCHAR UNIQUE, cmetadata JSON)` and `langchain_pg_embedding (id
 * VARCHAR PRIMARY KEY, collection_id UUID REFERENCES langchain_pg_collection(uuid), embedding
 * VECTOR(n), document VARCHAR, cmetadata JSONB)`. The mapping `sample` has always defaulted to.
 */
const LANGCHAIN_POSTGRES: SampleLayout = {
  name: 'langchain-postgres',
  client: 'langchain-postgres PGVector (Python)',
  verifiedAgainst: 'langchain-postgres 0.0.17 langchain_postgres/vectorstores.py (CollectionStore, EmbeddingStore); source only',
  columns: [
    { name: 'id', types: VARCHAR },
    { name: 'collection_id', types: ['uuid'] },
    { name: 'embedding', types: ['vector'] },
    { name: 'document', types: VARCHAR },
    { name: 'cmetadata', types: JSON_TYPES },
  ],
  references: [{ column: 'collection_id', table: 'langchain_pg_collection', columns: ['uuid', 'name', 'cmetadata'] }],
  mapping: { id: 'id', text: col('document'), embedding: 'embedding', metadata: 'cmetadata', ...none, namespace: col('collection_id') },
  notes: ['namespace = collection_id, the uuid of the langchain_pg_collection row'],
};

/**
 * langchain-postgres (Python) `PGVectorStore` (its v2 API), langchain-postgres 0.0.17
 * langchain_postgres/v2/engine.py `_ainit_vectorstore_table` defaults: `"langchain_id" UUID PRIMARY
 * KEY, "content" TEXT NOT NULL, "embedding" vector(n) NOT NULL`, the user's metadata columns, and
 * `"langchain_metadata" JSON` unless `store_metadata=False`.
 */
const LANGCHAIN_POSTGRES_V2: SampleLayout = {
  name: 'langchain-postgres-v2',
  client: 'langchain-postgres PGVectorStore (Python, v2 API)',
  verifiedAgainst: 'langchain-postgres 0.0.17 langchain_postgres/v2/engine.py (_ainit_vectorstore_table); source only',
  columns: [
    { name: 'langchain_id', types: ['uuid'] },
    { name: 'content', types: ['text'] },
    { name: 'embedding', types: ['vector'] },
    { name: 'langchain_metadata', types: JSON_TYPES, optional: true },
  ],
  mapping: { id: 'langchain_id', text: col('content'), embedding: 'embedding', metadata: 'langchain_metadata', ...none },
  notes: ['metadata columns the application declared are not read; --columns namespace=<column> takes one as the namespace'],
};

/**
 * LlamaIndex `PGVectorStore` (Python), llama-index-vector-stores-postgres
 * llama_index/vector_stores/postgres/base.py `get_data_model` (table `data_<table_name>`): `id
 * BIGINT PRIMARY KEY, text VARCHAR NOT NULL, metadata_ JSON (JSONB with use_jsonb), node_id
 * VARCHAR, embedding VECTOR(n)`, plus `text_search_tsv` with hybrid search. Read at the stored
 * commit 5793149c; the later versions read (halfvec option, indexed metadata keys) keep these columns.
 */
const LLAMAINDEX: SampleLayout = {
  name: 'llamaindex',
  client: 'LlamaIndex PGVectorStore (Python, llama-index-vector-stores-postgres)',
  verifiedAgainst: 'llama-index-vector-stores-postgres llama_index/vector_stores/postgres/base.py (get_data_model); source only',
  columns: [
    { name: 'id', types: ['bigint'] },
    { name: 'text', types: VARCHAR },
    { name: 'metadata_', types: JSON_TYPES },
    { name: 'node_id', types: VARCHAR },
    { name: 'embedding', types: ['vector'] },
  ],
  mapping: { id: 'node_id', text: col('text'), embedding: 'embedding', metadata: 'metadata_', ...none },
  notes: ["id = node_id (LlamaIndex's id; `id` is a serial); metadata_ holds LlamaIndex's own keys (_node_content, ref_doc_id, …) beside the application's"],
};

/**
 * LlamaIndex.TS `PGVectorStore`, @llamaindex/postgres 0.0.66 dist/index.js `checkSchema` (default
 * table `llamaindex_embedding`): `id uuid DEFAULT gen_random_uuid() PRIMARY KEY, external_id
 * VARCHAR, collection VARCHAR, document TEXT, metadata JSONB DEFAULT '{}', embeddings
 * VECTOR(n)`; `getDataToInsert` sets `metadata.create_date` when missing.
 */
const LLAMAINDEX_TS: SampleLayout = {
  name: 'llamaindex-ts',
  client: 'LlamaIndex.TS PGVectorStore (@llamaindex/postgres)',
  verifiedAgainst: '@llamaindex/postgres 0.0.66 dist/index.js (PGVectorStore.checkSchema, getDataToInsert); source only',
  columns: [
    { name: 'id', types: ['uuid'] },
    { name: 'external_id', types: VARCHAR },
    { name: 'collection', types: VARCHAR },
    { name: 'document', types: ['text'] },
    { name: 'metadata', types: ['jsonb'] },
    { name: 'embeddings', types: ['vector'] },
  ],
  mapping: { id: 'id', text: col('document'), embedding: 'embeddings', metadata: 'metadata', created_at: key('create_date'), namespace: col('collection'), kind: null },
};

/**
 * Mastra `PgVector`, @mastra/pg 1.27.1 dist/index.js `createIndex` (table `<indexName>`): `id
 * SERIAL PRIMARY KEY, vector_id TEXT NOT NULL, embedding vector(n), metadata JSONB DEFAULT '{}',
 * namespace VARCHAR(255) NOT NULL DEFAULT 'default'` (`namespace` added by `reconcileNamespace` to
 * tables of earlier versions; unique on (namespace, vector_id)). Mastra stores no text column: its
 * RAG examples upsert `metadata: { text: chunk.text }`. @mastra/pg's peer @mastra/core (≥ 1.68)
 * declares Node ≥ 22.13, so no test seeds it with the real client on this project's Node 20.
 */
const MASTRA: SampleLayout = {
  name: 'mastra',
  client: 'Mastra PgVector (@mastra/pg)',
  verifiedAgainst: '@mastra/pg 1.27.1 dist/index.js (PgVector.createIndex, upsert, reconcileNamespace); source only',
  columns: [
    { name: 'id', types: ['integer'] },
    { name: 'vector_id', types: ['text'] },
    { name: 'embedding', types: ['vector'] },
    { name: 'metadata', types: ['jsonb'] },
    { name: 'namespace', types: VARCHAR, optional: true },
  ],
  mapping: { id: 'vector_id', text: key('text'), embedding: 'embedding', metadata: 'metadata', ...none, namespace: col('namespace') },
  notes: [
    "text = metadata.text, the key Mastra's RAG examples write; Mastra Memory's semantic-recall indexes keep only message_id / thread_id / resource_id (their rows have no text and are not eligible)",
    'vector_id is unique per namespace only: when one repeats across namespaces, take the serial id (--columns id=id)',
  ],
};

/**
 * mem0's pgvector store: Python mem0 2.0.18 mem0/vector_stores/pgvector.py `create_col` and mem0ai
 * (TypeScript) 3.3.1 src/oss/src/vector_stores/pgvector.ts `createCol` create the same table
 * `<collection_name> (id UUID PRIMARY KEY, vector vector(n), payload JSONB)`. The payload holds the
 * memory text as `data`, `hash`, `user_id` / `agent_id` / `run_id`, and the creation time as
 * `created_at` (Python, mem0/memory/main.py) or `createdAt` (TypeScript, Memory.createMemory).
 * mem0ai's own `Memory.add(…, { infer: false })` seeds it in packages/runner/test/sample-layouts.test.ts.
 */
const MEM0: SampleLayout = {
  name: 'mem0',
  client: "mem0's pgvector store (Python mem0, TypeScript mem0ai)",
  verifiedAgainst:
    'mem0ai 3.3.1 dist/oss (PGVector.createCol, Memory.createMemory), seeded by the real client in a test; mem0 2.0.18 mem0/vector_stores/pgvector.py + mem0/memory/main.py, source only',
  columns: [
    { name: 'id', types: ['uuid'] },
    { name: 'vector', types: ['vector'] },
    { name: 'payload', types: ['jsonb'] },
  ],
  mapping: { id: 'id', text: key('data'), embedding: 'vector', metadata: 'payload', created_at: key('created_at', 'createdAt'), namespace: key('user_id'), kind: null },
  notes: ['namespace = payload.user_id (memories added with only agent_id or run_id are in namespace "default")'],
};

/**
 * Every layout, in the order that breaks a tie between two that match equally many columns (see
 * packages/runner/src/sample/layouts.ts: the layout matching the most required columns and
 * references wins).
 */
export const PG_SAMPLE_LAYOUTS: readonly SampleLayout[] = [LANGCHAIN_JS_COLLECTION, LANGCHAIN_JS, LANGCHAIN_POSTGRES, LANGCHAIN_POSTGRES_V2, LLAMAINDEX, LLAMAINDEX_TS, MASTRA, MEM0];

/** The langchain-postgres mapping: `sample`'s base mapping before layouts were detected (`SampleSource.defaults.columns`). */
export const LANGCHAIN_POSTGRES_MAPPING: SampleColumnMapping = LANGCHAIN_POSTGRES.mapping;
