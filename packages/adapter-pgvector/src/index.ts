export { createPgvectorStore, versionAtLeast, PgvectorStore, PGVECTOR_CAPABILITIES, type PgvectorStoreOptions } from './pgvector-adapter';
export { PgvectorCollection } from './collection';
export { fromPgPool, fromPGlite, type SqlClient, type SqlQueryable, type PGliteLike } from './sql';
export { pgvectorToCanonical, DISTANCE_OPERATOR, OPERATOR_CLASS } from './scores';
export { MAX_BATCH, MAX_CHUNK_BYTES } from './upsert';
export { vectorToLiteral, literalToVector } from './codec';
export { pgvectorSampleSource } from './sample';
