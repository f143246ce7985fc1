export { mastraPgvectorDriver, connectMastraPgvector, MASTRA_PGVECTOR, MASTRA_PGVECTOR_CAPABILITIES } from './pgvector-driver';
export { mastraLibsqlDriver, openMastraLibsql, MASTRA_LIBSQL, MASTRA_LIBSQL_CAPABILITIES, LIBSQL_MAX_DIM } from './libsql-driver';
export { MastraStore, indexNameOf, type MastraStoreParts } from './store';
export { MastraCollection, type MastraVectorLike } from './collection';
export { compileMastraFilter, MASTRA_FILTER_OPERATORS } from './filter-compile';
export { FIELD_KEYS, plainFilter } from './records';
export { MASTRA_SCORES, mastraScoreToCanonical } from './scores';
export { mastraPackageVersions } from './versions';
export { MASTRA_LINES, mastraOptionsSchema, checkLineNode, lineOf, type MastraLine, type MastraOptions } from './lines';
