export { connectLangchainChroma, LangchainChromaStore, LANGCHAIN_CHROMA_CAPABILITIES, type LangchainChromaOptions } from './langchain-chroma-adapter';
export { LangchainChromaCollection } from './collection';
export { documentMetadata, decodeRecord, filterToWhere, RESERVED } from './layout';
export { collectionMetadata, hnswOf, lcName, MARKER, specOf } from './marker';
export { chromadbClient, CHROMADB_MAJORS, type ChromadbMajor } from './clients';
export { PRECOMPUTED_ONLY } from './embeddings';
export { LANGCHAIN_CHROMA_SCORES } from './scores';
export { langchainChromaDriver, langchainChromaOptionsSchema, type LangchainChromaAdapterOptions } from './driver';
