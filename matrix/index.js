'use strict';
// @memory-matrix/catalog: where the built-in catalog is. The same paths hold in the repository
// (this folder is the workspace package) and in an installed copy of the package.
const path = require('node:path');

module.exports = {
  CATALOG_DIR: __dirname,
  CATALOG_FILE: path.join(__dirname, 'targets.yaml'),
};
