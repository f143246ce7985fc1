'use strict';
// @memory-matrix/golden-data: where the shipped golden files are. The same paths hold in the
// repository (this folder is the workspace package) and in an installed copy of the package.
const path = require('node:path');

/** This folder: the datasets (`<GOLDEN_DATA_DIR>/<name>/manifest.json`) and the check fixtures. */
const GOLDEN_DATA_DIR = __dirname;

module.exports = {
  GOLDEN_DATA_DIR,
  DEFAULT_DATASET: 'agent-memories',
  /** The golden filter sets (`<FILTER_SETS_DIR>/<dataset>.jsonl`, golden-data/FORMAT.md "Filter sets") and their cases files. */
  FILTER_SETS_DIR: path.join(GOLDEN_DATA_DIR, 'filters'),
  LEGACY_HISTORY_FILE: path.join(GOLDEN_DATA_DIR, 'legacy', 'history-payloads.json'),
  C26_EXPECTED_DUMP_FILE: path.join(GOLDEN_DATA_DIR, 'snapshots', 'c26-expected-dump.json'),
};
