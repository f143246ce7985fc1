/** Absolute path of the golden-data folder: datasets are its subfolders (`agent-memories/manifest.json`, …). */
export declare const GOLDEN_DATA_DIR: string;
/** The dataset a run uses when `--dataset` is not given. */
export declare const DEFAULT_DATASET: 'agent-memories';
/** The golden filter sets: `<FILTER_SETS_DIR>/<dataset>.jsonl` (built) and `<dataset>.cases.jsonl` (written by hand); absolute path. */
export declare const FILTER_SETS_DIR: string;
/** C20's legacy chat-history payloads (`legacy/history-payloads.json`, absolute path). */
export declare const LEGACY_HISTORY_FILE: string;
/** C26's expected canonical snapshot dump (`snapshots/c26-expected-dump.json`, absolute path). */
export declare const C26_EXPECTED_DUMP_FILE: string;
