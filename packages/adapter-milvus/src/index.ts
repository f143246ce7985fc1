export { createMilvusStore, MilvusStore, MILVUS_CAPABILITIES, MAX_BATCH_ROWS, DEFAULT_REQUEST_TIMEOUT_MS, type MilvusStoreOptions } from './milvus-adapter';
export { MilvusMemoryCollection, MAX_BATCH_BYTES } from './collection';
/** Extra neighbours asked beyond k so a tie group at rank k can be ordered by id (spec kit TIE_MARGIN). */
export { TIE_MARGIN as TIE_WINDOW } from '@memory-matrix/spec';
export { milvusToCanonical, MILVUS_SCORES } from './scores';
export { quoteString, quoteList, literal, jsonPath, idsExpr, UNQUOTABLE, hasC0Control } from './expr';
export { compileFilter, filterExpr, numberLiteral, typeTags, MILVUS_FILTER_OPERATORS, TYPE_TAGS } from './filter-expr';
export { FIELD, MARKER, MILVUS_METRIC, milvusName, specFromStored, markerDescription } from './schema';
export { CONSISTENCY, checkStatus, StoreContext, type CrashProbe } from './context';
export { encodeRow, decodeRow, chunkBy } from './codec';
export { milvusDriver } from './driver';
export { milvusContainerKind, MILVUS_PORT } from './driver/container';
