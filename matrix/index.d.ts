/** Absolute path of the catalog folder; a profile's `baselines.dir` (`matrix/baselines`) is resolved against its parent. */
export declare const CATALOG_DIR: string;
/** Absolute path of the built-in catalog, `targets.yaml`. */
export declare const CATALOG_FILE: string;
