export { createChromaStore, ChromaStore, CHROMA_CAPABILITIES, type ChromaStoreOptions } from './chroma-adapter';
export { ChromaMemoryCollection } from './collection';
/** Extra neighbours asked beyond k so a tie group at rank k can be ordered by id (spec kit TIE_MARGIN; Chroma's HNSW returns an arbitrary member of a tie group at the cut). */
export { TIE_MARGIN as TIE_WINDOW } from '@memory-matrix/spec';
export { chromaToCanonical, CHROMA_SPACE, metricOfSpace } from './scores';
export { chromaName, encodeMetadata, decodeRecord, type ChromaStoredRow, encodeVector, decodeVector, filterToWhere, instantKeys, RESERVED, TYPED_LAYOUT } from './codec';
export { compileWhere, CHROMA_FILTER_OPERATORS, CHROMA_PLAIN_FILTER_OPERATORS, TYPE_TAGS, type StoredType, type Where, type WhereLayout } from './where';
export { MARKER, createConfiguration, markerDimIndex, specFromStored } from './marker';
export { ChromaTransport, WRITE_PATH, type ChromaTimeouts, type LiveRequest } from './transport';
export { chromaDriver } from './driver';
export { chromaContainerKind, CHROMA_PORT } from './driver/container';
export { chromaLocal, chromaBindings, chromaCliVersion, LOCAL_CHROMA_ENGINES } from './driver/local';
export { connectChroma, probeChroma, dropChromaClient, awaitChromaWrite, isWriteInFlight, chromaClientTransport } from './driver/connect';
export { CHROMA_SCORES } from './scores';
