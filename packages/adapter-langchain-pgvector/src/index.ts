export { LangchainPgvectorStore, LANGCHAIN_PGVECTOR_CAPABILITIES, CLIENT_CHUNK_SIZE, SERVER_DEFAULT_EF_SEARCH } from './langchain-pgvector-adapter';
export { LangchainPgvectorCollection } from './collection';
export { langchainPgvectorDriver, connectLangchainPgvector } from './driver';
export { LANGCHAIN_PGVECTOR_SCORES, langchainScoreToCanonical, DISTANCE_STRATEGY } from './scores';
export { rowIdOf, MEMORY_ID_NAMESPACE } from './ids';
export { FIELD_KEYS } from './documents';
export { MARKER_TAG, tableOf } from './marker';
export { clientPackageVersions } from './versions';
export { PrecomputedEmbeddings } from './embeddings';
