export { createSqliteStore, SqliteStore, SQLITE_CAPABILITIES, type SqliteStoreOptions } from './sqlite-adapter';
export { SqliteCollection, MAX_BATCH } from './collection';
export { SqliteChatHistory, DEFAULT_HISTORY_PREFIX, turnsOutsideWindow, type SqliteSnapshotInfo } from './history';
export { sqliteEmbeddedEngine, type SqliteEngine } from './engine';
export { openConnection, type JournalConfig } from './connection';
export { sqliteVecToCanonical, SQLITE_METRICS, VEC0_DISTANCE_METRIC } from './scores';
export { vectorToBlob, blobToVector } from './codec';
export { sqliteDriver, SQLITE_SCORES, sqlitePackageVersions } from './driver';
