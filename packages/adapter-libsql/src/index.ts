export { createLibsqlStore, LibsqlStore, LIBSQL_CAPABILITIES } from './libsql-adapter';
export { LibsqlCollection, MAX_BATCH } from './collection';
export { TIE_MARGIN } from '@memory-matrix/spec';
export { libsqlToCanonical, LIBSQL_METRICS } from './scores';
export { diskannIndexSchema, LIBSQL_MAX_DIM, type DiskannIndex } from './schema';
export { libsqlDriver, LIBSQL_SCORES } from './driver';
export { libsqlPackageVersions } from './versions';
