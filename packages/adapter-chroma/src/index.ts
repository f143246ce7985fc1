export { createChromaStore, ChromaStore, CHROMA_CAPABILITIES, type ChromaStoreOptions } from './chroma-adapter';
export { ChromaMemoryCollection, TIE_WINDOW } from './collection';
export { chromaToCanonical, CHROMA_SPACE, metricOfSpace } from './scores';
export { chromaName, encodeMetadata, decodeRecord, encodeVector, decodeVector, filterToWhere, RESERVED } from './codec';
export { MARKER, createConfiguration, specFromStored } from './marker';
export { ChromaTransport, WRITE_PATH, type ChromaTimeouts, type LiveRequest } from './transport';
