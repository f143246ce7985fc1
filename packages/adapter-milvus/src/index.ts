export { createMilvusStore, MilvusStore, MILVUS_CAPABILITIES, MAX_BATCH_ROWS, DEFAULT_REQUEST_TIMEOUT_MS, type MilvusStoreOptions } from './milvus-adapter';
export { MilvusMemoryCollection, TIE_WINDOW, MAX_BATCH_BYTES } from './collection';
export { milvusToCanonical, MILVUS_SCORES } from './scores';
export { quoteString, quoteList, literal, jsonPath, filterExpr, idsExpr, UNQUOTABLE, hasC0Control } from './expr';
export { FIELD, MARKER, MILVUS_METRIC, milvusName, specFromStored, markerDescription } from './schema';
export { CONSISTENCY, checkStatus, StoreContext, type CrashProbe } from './context';
export { encodeRow, decodeRow, chunkBy } from './codec';
export { milvusDriver } from './driver';
export { milvusContainerKind, MILVUS_PORT } from './driver/container';
